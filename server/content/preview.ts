import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { EngineEnv } from '../engine/context.js';
import { rowToRecord } from '../engine/model.js';
import { findRow } from '../engine/store.js';
import type { AuthContext } from '../http/context.js';
import { ApiError, Code, fail, ok } from '../http/envelope.js';
import { allows } from '../security/access.js';
import { loadSecretRing, matchesAny, type SecretRing, tokenKeys } from '../security/secretFiles.js';

/**
 * Draft preview (docs/content.md): an operator's 预览 button asks `POST /dev-api/site/preview {schema, id}` for a
 * short-lived token bound to that one row and opens the /site/ page with `?preview=<token>`, which then shows the row
 * whether it is published or not. Only a signed-in holder of the entity's query permission gets a token; the token
 * is `<base64url payload>.<base64url HMAC-SHA256>` (payload: schema, row, user, expiry), its secret generated at
 * first start into DATA_DIR/keys/preview-token.key. Without a valid token the site shows published rows only. After
 * `npm run keys:rotate -- --preview`, links signed with the retired secret open until they expire (one lifetime).
 */

export const PREVIEW_TTL_MS = 10 * 60 * 1000;

/** Schemas whose rows the site can show as a draft, and the page that shows one (by key, or by the record). */
export const PREVIEW_PAGES: Record<string, (id: number, record: Record<string, unknown>) => string> = {
  content_news: (id) => `/site/news/${id}`,
  site_page: (id) => `/site/page/${id}`,
  content_classroom: (id) => `/site/classroom/${id}`,
  content_banner: () => '/site/',
  live_broadcast: (_id, record) => `/site/live/${encodeURIComponent(String(record.channelId ?? ''))}`,
};

export interface PreviewGrant {
  schema: string;
  id: number;
}

const mac = (secret: Buffer, data: string) => crypto.createHmac('sha256', secret).update(data).digest('base64url');

export class PreviewTokens {
  private readonly keys: SecretRing;
  constructor(dataDir: string) {
    this.keys = loadSecretRing(dataDir, 'preview');
  }

  sign(grant: PreviewGrant, userId: number, now = Date.now()): { token: string; expiresAt: number } {
    const payload = { p: 'preview', s: grant.schema, i: grant.id, u: userId, e: now + PREVIEW_TTL_MS };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return { token: `${body}.${mac(this.keys.current.secret, body)}`, expiresAt: payload.e };
  }

  /** The grant of a valid, unexpired token; null for anything else. */
  verify(token: unknown, now = Date.now()): PreviewGrant | null {
    if (typeof token !== 'string') return null;
    const parts = token.split('.');
    if (parts.length !== 2 || !/^[A-Za-z0-9_-]{1,1000}$/.test(parts[0]) || !/^[A-Za-z0-9_-]{1,100}$/.test(parts[1])) return null;
    if (
      !matchesAny(
        parts[1],
        tokenKeys(this.keys, PREVIEW_TTL_MS, now).map((secret) => mac(secret, parts[0])),
      )
    )
      return null;
    try {
      const p = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as Record<string, unknown>;
      if (p.p !== 'preview' || typeof p.s !== 'string' || !Number.isSafeInteger(p.i) || typeof p.e !== 'number' || p.e < now) return null;
      return { schema: p.s, id: p.i as number };
    } catch {
      return null;
    }
  }
}

/** The grant a /site/ request carries (`?preview=`): undefined when it carries none, null when it is invalid or expired. */
export function previewOf(tokens: PreviewTokens, request: FastifyRequest): PreviewGrant | null | undefined {
  const raw = (request.query as Record<string, unknown> | undefined)?.preview;
  if (raw === undefined || raw === '') return undefined;
  return tokens.verify(raw);
}

export function registerPreviewToken(app: FastifyInstance, env: EngineEnv, tokens: PreviewTokens): void {
  app.post('/dev-api/site/preview', { config: { permission: 'login', write: false } }, async (request) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const schema = String(body.schema ?? '');
    const entity = env.entities.get(schema);
    const page = PREVIEW_PAGES[schema];
    if (!entity || !page) throw fail('该内容不支持预览');
    const permission = entity.permissions.query ?? entity.permissions.list;
    if (!permission || !allows(request.auth as AuthContext, permission)) throw new ApiError(Code.FORBIDDEN, `没有权限，请联系管理员授权（需要 ${permission}）`);
    const id = Number(body.id);
    const row = Number.isSafeInteger(id) && id >= 1 ? await findRow(env.k, entity, id) : undefined;
    if (!row) throw fail('数据不存在或已被删除');
    const { token, expiresAt } = tokens.sign({ schema, id }, Number(request.auth?.userId ?? 0));
    return ok({ token, expiresAt, url: `${page(id, rowToRecord(entity, row))}?preview=${token}` });
  });
}
