import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { expect } from 'vitest';
import { buildApp } from '../../server/app.js';
import { loadConfig, type ServerConfig } from '../../server/config.js';
import { decryptWithPem, signTimer } from '../../server/security/protocol.js';

/**
 * Test harness for the reference server: each test file (or block) builds its own app on a throw-away data dir
 * and, on PostgreSQL, its own schema, then talks to it through app.inject with the protocol headers.
 */

export type Backend = 'sqlite' | 'postgres';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || undefined;

/**
 * Opt-in measure of what a server test file costs: with ZY_SERVER_STARTS=<file>, every build of an app (a start,
 * a peer or a restart — each runs migrations, schema sync and seed checks) appends "<test file>\t<backend>\t<kind>"
 * to that file; `cut -f1 <file> | sort | uniq -c` then gives starts per test file.
 */
async function countStart(backend: Backend, kind: 'start' | 'peer' | 'restart'): Promise<void> {
  const log = process.env.ZY_SERVER_STARTS;
  if (!log) return;
  const file = path.relative(process.cwd(), expect.getState().testPath ?? '?');
  await fs.appendFile(log, `${file}\t${backend}\t${kind}\n`);
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const backends: Backend[] = TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** The business envelope every /dev-api and /appv2 answer carries. */
export interface ApiBody<D = unknown> {
  code: number;
  msg: string;
  data?: D;
  rows?: unknown[];
  total?: number;
  token?: string;
  permissions?: string[];
  roles?: string[];
  [extra: string]: unknown;
}

export interface CallOptions {
  /** An object is sent as JSON; a string or Buffer is sent as is (set content-type in headers). */
  body?: unknown;
  token?: string;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** Add the Timer/Authentication protocol headers (default true). */
  sign?: boolean;
}

export interface CallResult<D = unknown> {
  status: number;
  body: ApiBody<D>;
  raw: string;
  rawBuffer: Buffer;
  headers: Record<string, unknown>;
}

export interface TestServer {
  readonly backend: Backend;
  readonly app: FastifyInstance;
  readonly config: ServerConfig;
  readonly dataDir: string;
  /** PostgreSQL schema of this server (undefined on SQLite). */
  readonly schema: string | undefined;
  call<D = unknown>(method: string, url: string, options?: CallOptions): Promise<CallResult<D>>;
  /** Signs in with a password; fails the test unless a token comes back. */
  login(username: string, password: string): Promise<string>;
  /** Decrypts an encrypted (code 20000) answer's data with the response private key. */
  decrypt<T = unknown>(data: unknown): T;
  /** The SMS codes the server sent, newest last, by mobile (captured from the SMS sender). */
  smsCodes(mobile: string): string[];
  /** Close the app and build a new one on the same data dir / schema (proves persistence). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds a test server. With `peerOf`, a second server process on the same data dir and (PostgreSQL) schema as that
 * one — several processes sharing one database; closing the peer leaves the shared data to the first server.
 */
export async function startServer(backend: Backend, overrides: Partial<ServerConfig> = {}, peerOf?: TestServer): Promise<TestServer> {
  const dataDir = peerOf ? peerOf.dataDir : await fs.mkdtemp(path.join(os.tmpdir(), 'zy-server-test-'));
  const schema = peerOf ? peerOf.schema : backend === 'postgres' ? `t_${crypto.randomBytes(6).toString('hex')}` : undefined;
  if (backend === 'postgres' && !TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const config = loadConfig(
    {},
    {
      dataDir,
      databaseUrl: backend === 'postgres' ? TEST_DATABASE_URL : undefined,
      databaseSchema: schema,
      logger: false,
      seed: true,
      // Every test signs in from 127.0.0.1, many times a minute: far above the public limits (server/security/rateLimits.ts).
      // Tests of those limits pass their own.
      rateLimits: {
        loginPerMinute: 100_000,
        loginPerHour: 100_000,
        smsPerNumberHour: 100_000,
        smsPerAddressHour: 100_000,
        registerPerHour: 100_000,
        pagesPerMinute: 100_000,
      },
      ...overrides,
    },
  );
  const sent = new Map<string, string[]>();

  async function build(): Promise<FastifyInstance> {
    const built = await buildApp({ config, serveConsole: false });
    // Keep every code the SMS driver is asked to deliver, so tests can sign in with it.
    const original = built.sms.send.bind(built.sms);
    built.sms.send = async (mobile: string, code: string) => {
      sent.set(mobile, [...(sent.get(mobile) ?? []), code]);
      await original(mobile, code);
    };
    return built;
  }

  let app = await build();
  await countStart(backend, peerOf ? 'peer' : 'start');
  let closed = false;

  const server: TestServer = {
    backend,
    config,
    dataDir,
    schema,
    get app() {
      return app;
    },
    async call<D = unknown>(method: string, url: string, options: CallOptions = {}): Promise<CallResult<D>> {
      const headers: Record<string, string> = {};
      if (options.sign !== false) Object.assign(headers, signTimer(app.keys.requestPublicPem));
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let payload: string | Buffer | undefined;
      if (options.body !== undefined) {
        if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
          payload = options.body;
        } else {
          payload = JSON.stringify(options.body);
          headers['content-type'] = 'application/json';
        }
      }
      Object.assign(headers, options.headers ?? {});
      const query = options.query ? Object.fromEntries(Object.entries(options.query).map(([k, v]) => [k, String(v)])) : undefined;
      const res = await app.inject({ method: method as 'GET', url, headers, payload, query });
      let body: ApiBody<D>;
      try {
        body = JSON.parse(res.body) as ApiBody<D>;
      } catch {
        body = { code: Number.NaN, msg: `(not JSON) ${res.body.slice(0, 200)}` };
      }
      return { status: res.statusCode, body, raw: res.body, rawBuffer: res.rawPayload, headers: res.headers };
    },
    async login(username: string, password: string): Promise<string> {
      const res = await server.call<{ token: string }>('POST', '/dev-api/api/login/login', { body: { username, password } });
      if (res.body.code !== 200 || typeof res.body.data?.token !== 'string') {
        throw new Error(`login ${username} failed: ${res.body.code} ${res.body.msg}`);
      }
      return res.body.data.token;
    },
    decrypt<T = unknown>(data: unknown): T {
      if (typeof data !== 'string') throw new Error(`encrypted data must be a string, got ${typeof data}`);
      return decryptWithPem(app.keys.responsePrivatePem, data) as T;
    },
    smsCodes(mobile: string): string[] {
      return [...(sent.get(mobile) ?? [])];
    },
    async restart() {
      await app.close();
      app = await build();
      await countStart(backend, 'restart');
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      if (peerOf) return; // the shared schema and data dir belong to the first server
      await dropTestSchema(schema);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
  return server;
}

/** A multipart/form-data body with one file field, encoded by the platform's own FormData. */
export async function multipartFile(
  field: string,
  filename: string,
  contentType: string,
  data: Buffer,
): Promise<{ body: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type: contentType }), filename);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  return { body, headers: { 'content-type': request.headers.get('content-type') ?? '' } };
}

/** Smallest valid PNG (1×1 transparent pixel). */
export const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A JPEG start (SOI + APP0 JFIF header); enough for content sniffing. */
export const JPEG_HEAD = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
  Buffer.alloc(64, 0x11),
  Buffer.from([0xff, 0xd9]),
]);

/** A router item as getRuleList/getStoreRule answer it (spec §3 menu and route item). */
export interface RouteNode {
  name?: string;
  path: string;
  component: string;
  hidden: boolean;
  redirect?: string;
  alwaysShow?: boolean;
  meta: { title: string; icon: string; noCache: boolean; link: string | null } | null;
  children?: RouteNode[];
}

/** Visits every item of a router tree, depth first. */
export function walkRoutes(tree: RouteNode[], visit: (node: RouteNode, depth: number) => void, depth = 0): void {
  for (const node of tree) {
    visit(node, depth);
    if (node.children) walkRoutes(node.children, visit, depth + 1);
  }
}

/** One minute in ms (tests move the clock with vi.setSystemTime; server and request signer both read Date.now()). */
export const MINUTE = 60 * 1000;

/** Drops a test's own PostgreSQL schema (nothing without TEST_DATABASE_URL or a schema). */
export async function dropTestSchema(schema: string | undefined): Promise<void> {
  if (!schema || !TEST_DATABASE_URL) return;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
