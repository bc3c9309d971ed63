import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signTimer } from '../../../server/security/protocol.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * A request signature is accepted at most once (docs/security.md): in the process that saw it, after that process
 * restarts, in a second process started on the same database while the first still runs (its claim must already be
 * on disk when the first answered, not only at a clean shutdown), and, on PostgreSQL, between two running processes.
 * On SQLite the seen-set is decided in memory with the claims written in batches (server/security/nonces.ts).
 */
const LIST = '/dev-api/system/config/list';
const STRICT = { authReadReuseMs: 0 };
const REPLAYED = { code: 40004, msg: '请求已被处理过（重复的签名），请刷新页面后重试' };

describe.each(backends)('单次有效的请求签名 (%s)', (backend) => {
  let s: TestServer;
  let token: string;
  beforeAll(async () => {
    // Every signature single-use (reads too), so a read exercises the store; the default reuse rule is tested in protocol.test.ts.
    s = await startServer(backend, STRICT);
    token = await s.login('admin', 'admin123');
  });
  afterAll(async () => s?.close());

  const send = (server: TestServer, headers: Record<string, string>) => server.call('GET', LIST, { sign: false, token, headers });

  it('同一进程内：第二次使用同一签名被拒绝，新的签名照常通过', async () => {
    const headers = signTimer(s.app.keys.requestPublicPem);
    expect((await send(s, headers)).body.code).toBe(200);
    expect((await send(s, headers)).body).toEqual(REPLAYED);
    expect((await send(s, signTimer(s.app.keys.requestPublicPem, Date.now() + 1))).body.code).toBe(200);
  });

  it('同时到达的同一签名只有一个被受理', async () => {
    const headers = signTimer(s.app.keys.requestPublicPem);
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(s, headers)));
    expect(answers.map((a) => a.body.code).sort()).toEqual([200, 40004, 40004, 40004, 40004, 40004, 40004, 40004]);
  });

  it('服务重启后，重启前用过的签名仍被拒绝', async () => {
    const headers = signTimer(s.app.keys.requestPublicPem);
    expect((await send(s, headers)).body.code).toBe(200);
    await s.restart();
    expect((await send(s, headers)).body).toEqual(REPLAYED);
  });

  it('应答之前签名已落盘：不经正常关闭，另一进程打开同一数据库也拒绝它', async () => {
    const headers = signTimer(s.app.keys.requestPublicPem);
    expect((await send(s, headers)).body.code).toBe(200);
    // A second process on the same data (first one still running, nothing flushed by a shutdown).
    const peer = await startServer(backend, STRICT, s);
    try {
      expect((await send(peer, headers)).body).toEqual(REPLAYED);
    } finally {
      await peer.close();
    }
  });

  it.runIf(backend === 'postgres')('两个进程共用 PostgreSQL：任一进程用过的签名在另一进程被拒绝', async () => {
    const peer = await startServer(backend, STRICT, s);
    try {
      for (const [first, second] of [
        [s, peer],
        [peer, s],
      ]) {
        const headers = signTimer(s.app.keys.requestPublicPem);
        expect((await send(first, headers)).body.code).toBe(200);
        expect((await send(second, headers)).body).toEqual(REPLAYED);
      }
    } finally {
      await peer.close();
    }
  });
});
