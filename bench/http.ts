import autocannon from 'autocannon';
import { decryptWithPem, signTimer } from '../server/security/protocol.js';
import { timerSigner } from './sign.js';
import { summarize } from './stats.js';

/**
 * HTTP benchmarks with autocannon against the running reference server.
 *
 * Every request carries the protocol headers (Timer, Authentication). Three signing modes:
 *  - fresh:  a new signature per request (setupRequest re-signs), as the console does: every request costs the server
 *            one RSA private decrypt;
 *  - console: as the console signs its reads (src/api/crypto.ts readSignature): one signature per 10 s, which a read
 *            may repeat for 30 s (docs/protocol.md "Single use"); the server verifies it once;
 *  - replayed: a small pool of pre-signed headers cycled over. Signatures are single-use (docs/security.md), so after
 *            the first use each is refused with 40004: the figures show what a replay flood costs the server.
 * Before each run one request is checked by hand (business code 200 / 20000, row counts, decryptable payload), and
 * during the run every answer's body must start with the expected code, or it is counted as a mismatch.
 */

export interface HttpContext {
  base: string;
  requestPublicPem: string;
  responsePrivatePem: string;
  /** Admin token used by the signed-in scenarios. */
  token: string;
  /** Online sessions when the benches started. */
  sessions: number;
}

export type Signing = 'fresh' | 'console' | 'replayed';

export interface HttpScenario {
  name: string;
  title: string;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  signedIn: boolean;
  signing: Signing;
  /** Business code every answer must carry. */
  expect: 200 | 20000 | 40004;
  /** Extra check of a decoded sample answer. */
  checkSample?: (answer: Envelope, ctx: HttpContext) => void;
}

export interface HttpResult {
  name: string;
  title: string;
  signing: Signing;
  durationS: number;
  connections: number;
  requests: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Answers with HTTP 2xx but the wrong business code. */
  mismatches: number;
}

export interface Envelope {
  code: number;
  msg: string;
  data?: unknown;
  rows?: unknown[];
  total?: number;
  token?: string;
  [key: string]: unknown;
}

/** src/api/crypto.ts READ_SIGNATURE_MS: how long the console reuses one signature for its reads. */
const CONSOLE_SIGNATURE_MS = 10_000;

export const LOGIN = { username: 'admin', password: 'admin123' };
const ONLINE_PAGE = '/dev-api/monitor/online/list?pageNum=1&pageSize=20';
export const ONLINE_ROWS = 20;

export function assert(condition: unknown, what: string): asserts condition {
  if (!condition) throw new Error(`基准前置检查失败：${what}`);
}

export async function call(
  ctx: Pick<HttpContext, 'base' | 'requestPublicPem'>,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<Envelope> {
  const headers: Record<string, string> = { ...signTimer(ctx.requestPublicPem) };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(ctx.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  assert(res.status === 200, `${method} ${path} 返回 HTTP ${res.status}`);
  return (await res.json()) as Envelope;
}

function checkRows(answer: { rows?: unknown[]; total?: number }, ctx: HttpContext): void {
  assert(Array.isArray(answer.rows) && answer.rows.length === ONLINE_ROWS, `在线用户应返回 ${ONLINE_ROWS} 行，实际 ${answer.rows?.length}`);
  assert(typeof answer.total === 'number' && answer.total >= ctx.sessions, `在线用户 total=${answer.total}，应 ≥ ${ctx.sessions}`);
}

export const HTTP_SCENARIOS: HttpScenario[] = [
  {
    name: 'rules',
    title: 'POST getRuleList',
    method: 'POST',
    path: '/dev-api/api/auth/getRuleList',
    signedIn: true,
    signing: 'fresh',
    expect: 200,
    checkSample: (a) => assert(Array.isArray(a.data) && a.data.length > 0, 'getRuleList 未返回菜单'),
  },
  {
    name: 'online',
    title: 'GET online list, 20 rows',
    method: 'GET',
    path: ONLINE_PAGE,
    signedIn: true,
    signing: 'fresh',
    expect: 200,
    checkSample: checkRows,
  },
  {
    name: 'online-replayed',
    title: 'GET online list with replayed signatures (refused, 40004)',
    method: 'GET',
    path: ONLINE_PAGE,
    signedIn: true,
    signing: 'replayed',
    expect: 40004,
  },
  {
    name: 'online-encrypted',
    title: 'GET online list, 20 rows, authEncode=1',
    method: 'GET',
    path: `${ONLINE_PAGE}&authEncode=1`,
    signedIn: true,
    signing: 'fresh',
    expect: 20000,
    checkSample: (a, ctx) => {
      assert(typeof a.data === 'string', '加密响应的 data 不是字符串');
      checkRows(decryptWithPem(ctx.responsePrivatePem, a.data) as Envelope, ctx);
    },
  },
  // Last: every sign-in adds a session (and scrypt makes it the slowest route by design).
  {
    name: 'login',
    title: 'POST login (admin, scrypt)',
    method: 'POST',
    path: '/dev-api/api/login/login',
    body: LOGIN,
    signedIn: false,
    signing: 'fresh',
    expect: 200,
    checkSample: (a) => assert(typeof a.token === 'string' && a.token.length > 20, '登录未返回 token'),
  },
];

/** Signs in once as admin and returns the token. */
export async function signIn(base: string, requestPublicPem: string): Promise<string> {
  const answer = await call({ base, requestPublicPem }, 'POST', '/dev-api/api/login/login', undefined, LOGIN);
  assert(answer.code === 200 && typeof answer.token === 'string', `登录失败：${answer.code} ${answer.msg}`);
  return answer.token;
}

export interface TimedRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

/**
 * Sends requests one at a time (nothing queues, so each time is the route's own plus one local HTTP round trip), each
 * with a fresh signature made before its clock starts, and returns the milliseconds from send to the last byte of
 * the answer. `check` sees every decoded answer (outside the timing) and throws on a wrong one.
 */
export async function sequentialRequests(
  ctx: Pick<HttpContext, 'base' | 'requestPublicPem' | 'token'>,
  n: number,
  request: (i: number) => TimedRequest,
  check: (answer: Envelope, i: number) => void,
): Promise<Float64Array> {
  const sign = timerSigner(ctx.requestPublicPem);
  const times = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = request(i);
    const headers: Record<string, string> = { ...sign(), Authorization: `Bearer ${ctx.token}` };
    if (r.body !== undefined) headers['Content-Type'] = 'application/json';
    const body = r.body === undefined ? undefined : JSON.stringify(r.body);
    let t0 = performance.now();
    let res: Response;
    try {
      res = await fetch(ctx.base + r.path, { method: r.method, headers, body });
    } catch (error) {
      // A keep-alive socket the server closed while the bench was busy elsewhere (its idle timeout is 72 s; the
      // in-process parts of a loaded run take longer): "other side closed". Send once more, freshly signed, and time
      // that; a server that is really gone fails again.
      if (!isStaleSocket(error)) throw error;
      const again: Record<string, string> = { ...headers, ...sign() };
      t0 = performance.now();
      res = await fetch(ctx.base + r.path, { method: r.method, headers: again, body });
    }
    const text = await res.text();
    times[i] = performance.now() - t0;
    assert(res.status === 200, `${r.method} ${r.path} 返回 HTTP ${res.status}`);
    check(JSON.parse(text) as Envelope, i);
  }
  return times;
}

/** undici's error for a pooled socket closed by the other side before or while the request went out. */
function isStaleSocket(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code === 'UND_ERR_SOCKET' || cause?.code === 'ECONNRESET' || /other side closed/.test(cause?.message ?? '');
}

/** Signs in as admin, then signs in until there are at least ONLINE_ROWS sessions, and checks the online page. */
export async function prepareHttp(base: string, requestPublicPem: string, responsePrivatePem: string): Promise<HttpContext> {
  const probe = { base, requestPublicPem };
  const first = await call(probe, 'POST', '/dev-api/api/login/login', undefined, LOGIN);
  assert(first.code === 200 && typeof first.token === 'string', `登录失败：${first.code} ${first.msg}`);
  for (let i = 1; i < ONLINE_ROWS + 1; i++) {
    const again = await call(probe, 'POST', '/dev-api/api/login/login', undefined, LOGIN);
    assert(again.code === 200, `第 ${i + 1} 次登录失败：${again.code} ${again.msg}`);
  }
  const ctx: HttpContext = { base, requestPublicPem, responsePrivatePem, token: first.token, sessions: ONLINE_ROWS + 1 };
  // Paging sanity: the default page is 10 rows, the total counts every session.
  const defaultPage = await call(ctx, 'GET', '/dev-api/monitor/online/list', ctx.token);
  assert(defaultPage.code === 200 && defaultPage.rows?.length === 10, `在线用户默认分页应为 10 行，实际 ${defaultPage.rows?.length}`);
  assert(defaultPage.total === ctx.sessions, `在线用户 total=${defaultPage.total}，应为 ${ctx.sessions}`);
  return ctx;
}

export async function runHttpScenario(ctx: HttpContext, s: HttpScenario, { duration = 5, connections = 10, warmup = 1 } = {}): Promise<HttpResult> {
  const auth = s.signedIn ? ctx.token : undefined;
  const sample = await call(ctx, s.method, s.path, auth, s.body);
  assert(sample.code === s.expect, `${s.name}: 样例请求返回 ${sample.code} ${sample.msg}，应为 ${s.expect}`);
  s.checkSample?.(sample, ctx);

  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (s.body !== undefined) headers['Content-Type'] = 'application/json';
  // Fresh: signed per request (parsed key, ~25 µs of client CPU). Replayed: 16 headers signed now and cycled over.
  const sign = timerSigner(ctx.requestPublicPem);
  const pool = Array.from({ length: 16 }, sign);
  let next = 0;
  let shared = { signature: sign(), at: Date.now() };
  const consoleSignature = () => {
    if (Date.now() - shared.at >= CONSOLE_SIGNATURE_MS) shared = { signature: sign(), at: Date.now() };
    return shared.signature;
  };
  const setupRequest: autocannon.Request['setupRequest'] = (request) => {
    const signature = s.signing === 'fresh' ? sign() : s.signing === 'console' ? consoleSignature() : pool[next++ % pool.length];
    request.headers = { ...request.headers, ...signature };
    return request;
  };
  const expected = `{"code":${s.expect},`;

  const instance = autocannon({
    url: ctx.base,
    title: s.name,
    connections,
    duration,
    warmup: { connections, duration: warmup },
    requests: [{ method: s.method, path: s.path, headers, body: s.body === undefined ? undefined : JSON.stringify(s.body), setupRequest }],
    verifyBody: (body) => body.startsWith(expected),
  });
  // autocannon's latency histogram has 1 ms resolution; keep every measured response time (ms, float) as well.
  const times: number[] = [];
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
  });
  const result = await instance;
  const latency = summarize(times);
  return {
    name: s.name,
    title: s.title,
    signing: s.signing,
    durationS: result.duration,
    connections,
    requests: result.latency.totalCount,
    reqPerSec: result.requests.average,
    latencyP50Ms: latency.p50,
    latencyP99Ms: latency.p99,
    latencyMeanMs: latency.mean,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
  };
}
