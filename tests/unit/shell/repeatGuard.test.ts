import { describe, expect, it } from 'vitest';
import { InflightReads, isReadRequest, REPEAT_MESSAGE, RepeatGuard } from '@/api/repeatGuard';

/** The duplicate-submit guard stops double submits of writes only; reads are never refused and share one request. */
describe('read or write', () => {
  it.each([
    ['post', '/dev-api/api/AdvanceApproval/experts'],
    ['post', '/dev-api/api/appointment/list'],
    ['post', '/dev-api/api/Subscriber/info'],
    ['post', '/appv2/api/apply/userInfo'],
    ['post', '/dev-api/api/auth/getRuleList'],
    ['post', '/appv2/api/Filling/schoolEnrollChance'],
    ['post', '/appv2/api/index/likeList'],
    ['get', '/dev-api/system/user/list'],
  ])('%s %s is a read', (method, url) => {
    expect(isReadRequest(method, url)).toBe(true);
  });

  it.each([
    ['post', '/dev-api/api/appointment/add'],
    ['post', '/dev-api/api/Subscriber/save'],
    ['post', '/dev-api/api/Subscriber/submit'],
    ['post', '/dev-api/api/Examine/approve'],
    ['put', '/dev-api/system/user'],
    ['post', '/dev-api/api/login/login'],
    ['post', '/appv2/api/index/shareZYNew'],
  ])('%s %s is a write', (method, url) => {
    expect(isReadRequest(method, url)).toBe(false);
  });

  it('an explicit flag on the call wins over the name', () => {
    expect(isReadRequest('post', '/dev-api/api/appointment/add', true)).toBe(true);
    expect(isReadRequest('post', '/dev-api/api/appointment/list', false)).toBe(false);
  });
});

describe('RepeatGuard', () => {
  it('refuses the same write within 1000 ms but never a read', () => {
    let now = 0;
    const guard = new RepeatGuard(() => now);
    expect(guard.check('post', '/dev-api/api/appointment/list', {})).toBeNull();
    expect(guard.check('post', '/dev-api/api/appointment/list', {})).toBeNull();
    expect(guard.check('post', '/dev-api/api/appointment/add', { a: 1 })).toBeNull();
    // A read between two identical writes does not reset the window.
    expect(guard.check('post', '/dev-api/api/appointment/list', {})).toBeNull();
    now = 999;
    expect(guard.check('post', '/dev-api/api/appointment/add', { a: 1 })).toBe(REPEAT_MESSAGE);
    now = 1000;
    expect(guard.check('post', '/dev-api/api/appointment/add', { a: 1 })).toBeNull();
  });
});

describe('InflightReads', () => {
  it('gives identical reads in flight one request, and asks again once it has answered', async () => {
    const reads = new InflightReads();
    let started = 0;
    let release: (v: string) => void = () => {};
    const start = () => {
      started += 1;
      return new Promise<string>((resolve) => {
        release = resolve;
      });
    };
    const a = reads.share('k', start);
    const b = reads.share('k', start);
    expect(started).toBe(1);
    release('rows');
    await expect(Promise.all([a, b])).resolves.toEqual(['rows', 'rows']);
    expect(reads.size).toBe(0);
    const c = reads.share('k', start);
    expect(started).toBe(2);
    release('again');
    await expect(c).resolves.toBe('again');
  });

  it('lets a failed read fail every caller and be asked again', async () => {
    const reads = new InflightReads();
    const failing = () => Promise.reject(new Error('后端接口连接异常'));
    await expect(Promise.all([reads.share('k', failing), reads.share('k', failing)])).rejects.toThrow('后端接口连接异常');
    expect(reads.size).toBe(0);
  });
});
