import { waitFor } from '@testing-library/react';
import { HttpResponse, http as mock } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { decryptPayload, forgetReadSignature, noteServerDate, signTimestamp } from '@/api/crypto';
import { inflightReads, repeatGuard } from '@/api/repeatGuard';
import {
  READ_AHEAD_KEEP_MS,
  REPLAYED_MESSAGE,
  RequestError,
  readAhead,
  request,
  SESSION_EXPIRED_MESSAGE,
  setFeedback,
  setSessionExpiredHandler,
} from '@/api/request';
import { clearSessionKey, createSessionKey } from '@/api/sessionKey';
import { removeToken, setToken } from '@/utils/auth';
import { requestsInFlight } from '../settle';
import { useRealKeys } from './keys';

/**
 * The http client against a mocked server: every row of spec §8's code table, the transport errors, the headers a
 * request carries, the duplicate-submit guard, and decryption of code-20000 answers produced by the real server
 * Protocol class.
 */
const server = setupServer();
const real = useRealKeys();
const feedback = {
  message: { error: vi.fn(), warning: vi.fn(), success: vi.fn(), loading: vi.fn(() => () => undefined) },
  notification: { error: vi.fn() },
  modal: { confirm: vi.fn() },
};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  real.cleanup();
});
beforeEach(() => {
  repeatGuard.reset();
  setFeedback(feedback as never);
  removeToken();
});
afterEach(() => {
  server.resetHandlers();
  vi.clearAllMocks();
});

const answer = (body: Record<string, unknown>) => server.use(mock.post('*/dev-api/x', () => HttpResponse.json(body)));
const call = () => request({ url: '/dev-api/x', method: 'post', data: { n: Math.random() } });

describe('§8 code table', () => {
  it('200 resolves with the envelope and shows nothing', async () => {
    answer({ code: 200, msg: '操作成功', data: { a: 1 } });
    await expect(call()).resolves.toMatchObject({ code: 200, data: { a: 1 } });
    expect(feedback.message.error).not.toHaveBeenCalled();
    expect(feedback.notification.error).not.toHaveBeenCalled();
  });

  it('20000 with string data is decrypted (data encrypted by the server Protocol)', async () => {
    answer({ code: 20000, msg: '操作成功', data: real.protocol.encrypt({ 姓名: '张三', score: 600 }) });
    await expect(call()).resolves.toMatchObject({ code: 200, data: { 姓名: '张三', score: 600 } });
  });

  it('20000 list answers decrypt into rows and total', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ id: i, name: `第${i}行` }));
    answer({ code: 20000, msg: '查询成功', data: real.protocol.encrypt({ rows, total: 57 }) });
    const env = await call();
    expect(env.rows).toEqual(rows);
    expect(env.total).toBe(57);
  });

  it.each([20001, 90001, 400333, 40033])('%i resolves with the full response and no message', async (code) => {
    answer({ code, msg: '需要处理', data: { extra: true }, other: 'x' });
    await expect(call()).resolves.toEqual({ code, msg: '需要处理', data: { extra: true }, other: 'x' });
    expect(feedback.message.error).not.toHaveBeenCalled();
    expect(feedback.notification.error).not.toHaveBeenCalled();
  });

  it.each([401, 40310])('%i asks to re-login (系统提示, 重新登录/取消) and rejects with the invalid-session message', async (code) => {
    const relogin = vi.fn();
    setSessionExpiredHandler(relogin);
    answer({ code, msg: '登录状态已过期' });
    await expect(call()).rejects.toThrow(SESSION_EXPIRED_MESSAGE);
    expect(feedback.modal.confirm).toHaveBeenCalledTimes(1);
    const dialog = feedback.modal.confirm.mock.calls[0][0];
    expect(dialog).toMatchObject({ title: '系统提示', okText: '重新登录', cancelText: '取消' });
    expect(relogin).not.toHaveBeenCalled();
    dialog.onOk();
    expect(relogin).toHaveBeenCalledTimes(1);
  });

  it('several expired calls at once open one dialog', async () => {
    answer({ code: 401, msg: '' });
    await Promise.allSettled([request({ url: '/dev-api/x', method: 'post', data: { a: 1 } }), request({ url: '/dev-api/x', method: 'post', data: { a: 2 } })]);
    expect(feedback.modal.confirm).toHaveBeenCalledTimes(1);
    feedback.modal.confirm.mock.calls[0][0].onCancel();
  });

  it.each([
    [500, '数据库忙'],
    [601, '请先完善资料'],
    [40000, '参数有误'],
    [50000, '稍后再试'],
  ])('%i shows an error toast with the message and rejects', async (code, msg) => {
    answer({ code, msg });
    await expect(call()).rejects.toMatchObject({ code, message: msg });
    expect(feedback.message.error).toHaveBeenCalledWith(msg);
  });

  it('44444 shows an error toast and resolves', async () => {
    answer({ code: 44444, msg: '余额不足' });
    await expect(call()).resolves.toMatchObject({ code: 44444 });
    expect(feedback.message.error).toHaveBeenCalledWith('余额不足');
  });

  it('any other code shows an error notification and rejects', async () => {
    answer({ code: 403, msg: '没有权限，请联系管理员授权（需要 system:config:remove）' });
    await expect(call()).rejects.toBeInstanceOf(RequestError);
    expect(feedback.notification.error).toHaveBeenCalledWith({ message: '没有权限，请联系管理员授权（需要 system:config:remove）' });
  });

  it('an answer without msg uses the default message of its code', async () => {
    answer({ code: 50000 });
    await expect(call()).rejects.toThrow('系统内部错误，请稍后重试');
    answer({ code: 12345 });
    await expect(call()).rejects.toThrow('系统未知错误，请反馈给管理员');
  });
});

describe('a money request the server had already done', () => {
  it('resolves with the first answer and tells the user it was not done again', async () => {
    server.use(
      mock.post('*/dev-api/x', () =>
        HttpResponse.json({ code: 200, msg: '续费订单已创建', data: { orderNo: 'N1' } }, { headers: { 'idempotent-replayed': 'true' } }),
      ),
    );
    await expect(call()).resolves.toMatchObject({ code: 200, data: { orderNo: 'N1' } });
    expect(feedback.message.warning).toHaveBeenCalledWith(REPLAYED_MESSAGE);
  });

  it('says nothing about an answer done for the first time', async () => {
    answer({ code: 200, msg: '续费订单已创建', data: { orderNo: 'N2' } });
    await call();
    expect(feedback.message.warning).not.toHaveBeenCalled();
  });
});

describe('transport errors', () => {
  it('network failure: 后端接口连接异常', async () => {
    server.use(mock.post('*/dev-api/x', () => HttpResponse.error()));
    await expect(call()).rejects.toThrow('后端接口连接异常');
  });

  it('HTTP status error: 系统接口{code}异常', async () => {
    server.use(mock.post('*/dev-api/x', () => new HttpResponse('bad gateway', { status: 502 })));
    await expect(call()).rejects.toThrow('系统接口502异常');
  });
});

describe('what a request carries', () => {
  it('a verifiable Authentication for its Timer, and the bearer token', async () => {
    setToken('tok-123');
    let seen: Headers | undefined;
    server.use(
      mock.post('*/dev-api/x', ({ request }) => {
        seen = request.headers;
        return HttpResponse.json({ code: 200, msg: 'ok' });
      }),
    );
    const before = Date.now();
    await call();
    const after = Date.now();
    expect(seen?.get('authorization')).toBe('Bearer tok-123');
    const timer = seen?.get('timer') ?? '';
    // Signed with this machine's clock during the call (however long the call took).
    expect(Number(timer)).toBeGreaterThanOrEqual(before);
    expect(Number(timer)).toBeLessThanOrEqual(after);
    // The server's own verifier accepts it; a changed Timer is refused as tampered.
    expect(real.protocol.verify(seen?.get('authentication') ?? '', timer)).toMatchObject({ ok: true });
    expect(real.protocol.verify(seen?.get('authentication') ?? '', String(Number(timer) + 1))).toMatchObject({ ok: false, code: 40002 });
  });

  it('isToken false sends no bearer token', async () => {
    setToken('tok-123');
    let auth: string | null = 'unset';
    server.use(
      mock.post('*/dev-api/x', ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({ code: 200, msg: 'ok' });
      }),
    );
    await request({ url: '/dev-api/x', method: 'post', data: {}, options: { isToken: false } });
    expect(auth).toBeNull();
  });

  it('GET params use RuoYi bracket form and encrypt adds authEncode=1', async () => {
    let url = '';
    server.use(
      mock.get('*/dev-api/list', ({ request }) => {
        url = request.url;
        return HttpResponse.json({ code: 200, msg: 'ok', rows: [], total: 0 });
      }),
    );
    await request({
      url: '/dev-api/list',
      method: 'get',
      params: { pageNum: 1, userName: '', params: { beginTime: '2025-01-01' } },
      options: { encrypt: true },
    });
    const q = new URL(url).searchParams;
    expect(q.get('pageNum')).toBe('1');
    expect(q.has('userName')).toBe(false);
    expect(q.get('params[beginTime]')).toBe('2025-01-01');
    expect(q.get('authEncode')).toBe('1');
  });
});

describe('signatures: reads share one for 10 s, writes get their own', () => {
  const seenSignatures = (path: string) => {
    const seen: string[] = [];
    server.use(
      mock.post(`*/dev-api/${path}`, ({ request }) => {
        seen.push(request.headers.get('authentication') ?? '');
        return HttpResponse.json({ code: 200, msg: 'ok', rows: [] });
      }),
    );
    return seen;
  };

  it('two reads within 10 s carry the same signature; after 10 s a new one; two writes never share', async () => {
    forgetReadSignature();
    const reads = seenSignatures('user/list');
    const writes = seenSignatures('user/save');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await request({ url: '/dev-api/user/list', method: 'post', data: { pageNum: 1 } });
      await request({ url: '/dev-api/user/list', method: 'post', data: { pageNum: 2 } });
      vi.setSystemTime(Date.now() + 10_001);
      await request({ url: '/dev-api/user/list', method: 'post', data: { pageNum: 3 } });
      await request({ url: '/dev-api/user/save', method: 'post', data: { name: '张三' } });
      await request({ url: '/dev-api/user/save', method: 'post', data: { name: '李四' } });
    } finally {
      vi.useRealTimers();
    }
    expect(reads[0]).toBe(reads[1]);
    expect(reads[2]).not.toBe(reads[0]);
    expect(new Set([...writes, ...reads]).size).toBe(4);
  });

  it('a read the server refuses as a repeated signature (40004) is sent once more with its own signature', async () => {
    forgetReadSignature();
    const seen: string[] = [];
    server.use(
      mock.post('*/dev-api/misnamed/list', ({ request }) => {
        seen.push(request.headers.get('authentication') ?? '');
        // As the server answers a write route that was sent a signature already used.
        if (seen.length === 1) return HttpResponse.json({ code: 40004, msg: '请求已被处理过（重复的签名），请刷新页面后重试' });
        return HttpResponse.json({ code: 200, msg: 'ok', data: 7 });
      }),
    );
    await expect(request({ url: '/dev-api/misnamed/list', method: 'post', data: {} })).resolves.toMatchObject({ code: 200, data: 7 });
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
    expect(feedback.notification.error).not.toHaveBeenCalled();
  });
});

describe('a read started ahead (a list page asks for its rows while it renders)', () => {
  /** A list endpoint counting its calls; `fail` answers the next call with code 500. */
  const listServer = () => {
    const state = { hits: 0, fail: false };
    server.use(
      mock.get('*/dev-api/demo/list', () => {
        state.hits += 1;
        if (state.fail) {
          state.fail = false;
          return HttpResponse.json({ code: 500, msg: '服务繁忙' });
        }
        return HttpResponse.json({ code: 200, msg: '查询成功', rows: [{ n: state.hits }], total: 1 });
      }),
      mock.post('*/dev-api/demo/save', () => HttpResponse.json({ code: 200, msg: '保存成功' })),
    );
    return state;
  };
  const list = (pageNum = 1) => ({ url: '/dev-api/demo/list', method: 'get' as const, params: { pageNum, pageSize: 20 } });
  afterEach(() => inflightReads.clear());

  it('the identical call takes the answer read ahead, once; a second call asks the server again', async () => {
    const state = listServer();
    readAhead(list());
    await waitFor(() => expect(state.hits).toBe(1));
    const first = await request(list());
    expect(first.rows).toEqual([{ n: 1 }]);
    expect(state.hits).toBe(1);
    const second = await request(list());
    expect(second.rows).toEqual([{ n: 2 }]);
    expect(state.hits).toBe(2);
    // Another page is another read: the answer ahead does not stand in for it.
    readAhead(list(1));
    await request(list(2));
    expect(state.hits).toBe(4);
  });

  it(`waits at most ${READ_AHEAD_KEEP_MS} ms after it arrived`, async () => {
    const state = listServer();
    readAhead(list());
    // Its answer has arrived and been taken in (the keep window counts from then).
    await waitFor(() => expect(requestsInFlight()).toBe(0));
    expect(state.hits).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + READ_AHEAD_KEEP_MS + 1);
      const late = await request(list());
      expect(late.rows).toEqual([{ n: 2 }]);
      expect(state.hits).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a write in between drops it: the read after the write asks the server', async () => {
    const state = listServer();
    readAhead(list());
    await waitFor(() => expect(state.hits).toBe(1));
    await request({ url: '/dev-api/demo/save', method: 'post', data: { name: '新参数' } });
    await request(list());
    expect(state.hits).toBe(2);
  });

  it('a failed read ahead shows nothing; the call then asks itself and reports its own answer', async () => {
    const state = listServer();
    state.fail = true;
    readAhead(list());
    // Its failure has arrived and been handled: nothing was shown for it.
    await waitFor(() => expect(requestsInFlight()).toBe(0));
    expect(state.hits).toBe(1);
    expect(feedback.notification.error).not.toHaveBeenCalled();
    expect(feedback.message.error).not.toHaveBeenCalled();
    const answer = await request(list());
    expect(answer.rows).toEqual([{ n: 2 }]);
    expect(state.hits).toBe(2);
  });
});

describe('duplicate submit guard (1000 ms)', () => {
  it('refuses the same POST with the same body within a second, without calling the server', async () => {
    let hits = 0;
    server.use(
      mock.post('*/dev-api/save', () => {
        hits += 1;
        return HttpResponse.json({ code: 200, msg: '保存成功' });
      }),
    );
    const save = () => request({ url: '/dev-api/save', method: 'post', data: { name: '张三' } });
    // The clock stands still: the second click comes within the second however long the first answer took here.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await save();
      await expect(save()).rejects.toThrow('数据正在处理，请勿重复提交');
      expect(hits).toBe(1);
      expect(feedback.message.warning).toHaveBeenCalledWith('数据正在处理，请勿重复提交');
      // A different body is a different intention.
      await request({ url: '/dev-api/save', method: 'post', data: { name: '李四' } });
      expect(hits).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets the same POST through after the window and when repeatSubmit is false', async () => {
    let hits = 0;
    server.use(
      mock.post('*/dev-api/save', () => {
        hits += 1;
        return HttpResponse.json({ code: 200, msg: 'ok' });
      }),
    );
    await request({ url: '/dev-api/save', method: 'post', data: { a: 1 }, options: { repeatSubmit: false } });
    await request({ url: '/dev-api/save', method: 'post', data: { a: 1 }, options: { repeatSubmit: false } });
    expect(hits).toBe(2);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      await request({ url: '/dev-api/save', method: 'post', data: { b: 1 } });
      vi.setSystemTime(Date.now() + 1001);
      await request({ url: '/dev-api/save', method: 'post', data: { b: 1 } });
      expect(hits).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('crypto', () => {
  it('signTimestamp produces what the server verifies; a stale Timer is refused', () => {
    const signed = signTimestamp();
    expect(real.protocol.verify(signed.Authentication, signed.Timer)).toMatchObject({ ok: true });
    const old = signTimestamp(Date.now() - 6 * 60 * 1000);
    expect(real.protocol.verify(old.Authentication, old.Timer)).toMatchObject({ ok: false, code: 40003 });
  });

  it("signs with the server clock when this machine's clock runs ahead", () => {
    const local = Date.now();
    noteServerDate(new Date(local - 10 * 60 * 1000).toUTCString(), local);
    const signed = signTimestamp();
    expect(real.protocol.verify(signed.Authentication, signed.Timer, local - 10 * 60 * 1000)).toMatchObject({ ok: true });
    // A server clock within the Date header's one-second resolution: no correction at all.
    noteServerDate(new Date().toUTCString());
    const before = Date.now();
    const timer = Number(signTimestamp().Timer);
    expect(timer).toBeGreaterThanOrEqual(before);
    expect(timer).toBeLessThanOrEqual(Date.now());
  });

  it('decryptPayload refuses malformed data with a Chinese message', async () => {
    await expect(decryptPayload('no-dot')).rejects.toThrow('响应数据格式错误，无法解密');
    const good = real.protocol.encrypt({ a: 1 });
    const [wrapped] = good.split('.');
    await expect(decryptPayload(`${wrapped}.AAAA`)).rejects.toThrow('响应数据解密失败，请刷新页面后重试');
  });

  it("opens answers wrapped with this sign-in's own key, and no longer after sign-out", async () => {
    const spki = await createSessionKey();
    expect(spki).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const sealed = real.protocol.encryptForSession(spki as string, { rows: [1, 2], total: 2 });
    expect(sealed.startsWith('s1.')).toBe(true);
    expect(await decryptPayload(sealed)).toEqual({ rows: [1, 2], total: 2 });
    // The static response key cannot open it.
    await expect(decryptPayload(sealed.slice(3))).rejects.toThrow('响应数据解密失败');
    await clearSessionKey();
    await expect(decryptPayload(sealed)).rejects.toThrow('请重新登录');
  });
});
