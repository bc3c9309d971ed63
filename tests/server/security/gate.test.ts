import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { ok } from '../../../server/http/envelope.js';
import { signTimer } from '../../../server/security/protocol.js';
import { createSession } from '../../../server/security/sessions.js';
import { startServer, type TestServer } from '../harness.js';

/**
 * The gate is decided by the matched route, not by the URL text (docs/security.md, finding 1). Fastify matches the
 * decoded path, so `/%64ev-api/…` reaches a /dev-api route; every such spelling must still meet the signature, session
 * and permission checks. Generated from the route registry: a new route is covered without anyone writing a line.
 */

const hex = (ch: string, upper: boolean) => {
  const h = ch.charCodeAt(0).toString(16);
  return `%${upper ? h.toUpperCase() : h.toLowerCase()}`;
};

/** Other spellings of one path that a client could send for it. */
export function spellings(url: string): string[] {
  const [, prefix, ...rest] = url.split('/'); // '', 'dev-api', …
  const tail = rest.join('/');
  const firstLetter = prefix.search(/[a-z]/);
  const encodeAt = (s: string, i: number, upper: boolean) => s.slice(0, i) + hex(s[i], upper) + s.slice(i + 1);
  const dash = prefix.indexOf('-');
  const out = [
    `/${encodeAt(prefix, firstLetter, false)}/${tail}`, // /%64ev-api/…
    `/${[...prefix].map((c) => hex(c, false)).join('')}/${tail}`, // every letter encoded, lower-case hex
    `/${[...prefix].map((c) => hex(c, true)).join('')}/${tail}`, // upper-case hex
    `/${prefix}/${tail.replace(/[a-z]/, (c) => hex(c, true))}`, // a letter later in the path
    `//${prefix}/${tail}`,
    `/${prefix}//${tail}`,
    `/./${prefix}/${tail}`,
    `/${prefix}/./${tail}`,
    `/x/../${prefix}/${tail}`,
    `/${prefix}%2F${tail.replace(/\//g, '%2F')}`,
    `/${prefix}%2f${tail}`,
    `/${prefix};x=1/${tail}`,
    `/${prefix}/${tail};jsessionid=1`,
    `/${prefix}/${tail}%20`,
    `/${prefix}/${tail}%00`,
    `/${prefix}/${tail}%2F`,
    `/${prefix}/${tail}/`,
    `/${prefix.toUpperCase()}/${tail}`,
    `/${prefix}/${tail}?authEncode=0`,
  ];
  if (dash >= 0) out.push(`/${encodeAt(prefix, dash, true)}/${tail}`); // /dev%2Dapi/…
  return [...new Set(out)];
}

const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '1').replace(/\*/g, 'x');

/** Codes that mean "not served": no or bad signature, no session, no permission, no such route, bad request. */
const REFUSALS = new Set([40001, 40002, 40003, 40004, 400, 401, 403, 404, 40310]);

describe('the gate is decided by the matched route (every registered route, many spellings, no headers)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('sqlite');
  });
  afterAll(async () => {
    await s?.close();
  });

  it('refuses 100 % of the spellings of every protected and public API route sent without headers', async () => {
    const routes = s.app.routeRegistry;
    expect(routes.length).toBeGreaterThan(150);
    const served: string[] = [];
    let sent = 0;
    for (const route of routes) {
      for (const url of [concrete(route.url), ...spellings(concrete(route.url))]) {
        const res = await s.app.inject({ method: route.method as 'GET', url });
        sent += 1;
        let code: number | undefined;
        try {
          code = (JSON.parse(res.body) as { code?: number }).code;
        } catch {
          code = undefined;
        }
        const refused = res.statusCode === 404 || (code !== undefined && REFUSALS.has(code));
        if (!refused) served.push(`${route.method} ${url} → HTTP ${res.statusCode} ${res.body.slice(0, 80)}`);
      }
    }
    expect(sent).toBeGreaterThan(routes.length * 15);
    expect(served).toEqual([]);
  });
});

describe('a handler never runs without the caller its route needs', () => {
  let app: FastifyInstance;
  let dataDir: string;
  const hits = { login: 0, perm: 0, app: 0 };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-gate-'));
    app = await buildApp({ config: loadConfig({}, { dataDir, seed: true, logger: false }), serveConsole: false });
    // Probe routes added like any module's: they count how often their handler runs.
    app.post('/dev-api/probe/login', { config: { permission: 'login', write: true } }, async () => {
      hits.login += 1;
      return ok();
    });
    app.post('/dev-api/probe/perm', { config: { permission: 'probe:secret:edit', write: true } }, async () => {
      hits.perm += 1;
      return ok();
    });
    app.get('/appv2/api/probe/mine', { config: { permission: 'login', write: false } }, async () => {
      hits.app += 1;
      return ok();
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused under every spelling, without headers, with a signature only, and with a forged token', async () => {
    const pem = app.keys.requestPublicPem;
    const variants: Array<() => Record<string, string>> = [
      () => ({}),
      () => signTimer(pem),
      () => ({ ...signTimer(pem), authorization: 'Bearer not-a-real-token' }),
      () => ({ ...signTimer(pem), authorization: 'Bearer ' }),
    ];
    for (const [method, url] of [
      ['POST', '/dev-api/probe/login'],
      ['POST', '/dev-api/probe/perm'],
      ['GET', '/appv2/api/probe/mine'],
    ] as const) {
      for (const spelled of [url, ...spellings(url)]) {
        for (const headers of variants) await app.inject({ method, url: spelled, headers: headers() });
      }
    }
    expect(hits).toEqual({ login: 0, perm: 0, app: 0 });
  });

  it('runs for a signed-in caller (the probe can count), and a permission route still needs the permission', async () => {
    const operator = await app.db.kysely.selectFrom('sysUser').select(['userId', 'userName']).where('userName', '=', 'operator').executeTakeFirstOrThrow();
    const token = await createSession(app.db.kysely, operator, { ipaddr: null, browser: null, os: null }, 60_000);
    const call = (method: 'GET' | 'POST', url: string) =>
      app.inject({ method, url, headers: { ...signTimer(app.keys.requestPublicPem), authorization: `Bearer ${token}` } });
    expect(JSON.parse((await call('POST', '/%64ev-api/probe/login')).body).code).toBe(200);
    expect(JSON.parse((await call('GET', '/appv2/api/probe/mine')).body).code).toBe(200);
    expect(JSON.parse((await call('POST', '/dev-api/probe/perm')).body).code).toBe(403);
    expect(hits).toEqual({ login: 1, perm: 0, app: 1 });
  });
});
