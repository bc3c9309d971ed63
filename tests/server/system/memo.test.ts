import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../server/security/password.js';
import { newUserRow } from '../../../server/system/newUserRow.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * 备忘录 (schemas/system/sys_memo.json, x-owner): every user sees and changes only their own notes — list, the single
 * read, update and delete by id all refuse another user's note, the super admin's requests included — and the due
 * notes (提醒时间 reached, not done) come back from /due and as the 首页 to-do tile 到期备忘.
 */
const BASE = '/dev-api/system/memo';

interface Memo {
  memoId: number;
  userId: number;
  title: string;
  content: string | null;
  remindAt: number | null;
  done: string;
  version: number;
}

describe.each(backends)('备忘录 (%s)', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A signed-in staff user (role 专家 = expert, which every seeded role's grant gives 备忘录). */
  async function staff(): Promise<{ token: string; userId: number }> {
    const db = s.app.db.kysely;
    const userName = `memo_${crypto.randomBytes(4).toString('hex')}`;
    const user = await db
      .insertInto('sysUser')
      .values(newUserRow({ deptId: 101, userName, nickName: userName, password: await hashPassword('secret123'), createTime: Date.now() }))
      .returning('userId')
      .executeTakeFirstOrThrow();
    const role = await db.selectFrom('sysRole').select('roleId').where('roleKey', '=', 'expert').executeTakeFirstOrThrow();
    await db.insertInto('sysUserRole').values({ userId: user.userId, roleId: role.roleId }).execute();
    return { token: await s.login(userName, 'secret123'), userId: user.userId };
  }

  const add = async (token: string, body: Record<string, unknown>) => {
    const res = await s.call('POST', BASE, { token, body });
    expect(res.body.code, res.body.msg).toBe(200);
    const list = await s.call('GET', `${BASE}/list`, { token, query: { title: String(body.title), pageSize: 50 } });
    return (list.body.rows as Memo[]).find((m) => m.title === body.title) as Memo;
  };

  it('a note belongs to who wrote it: another user cannot list, read, change or delete it by id', async () => {
    const a = await staff();
    const b = await staff();
    const admin = await s.login('admin', 'admin123');
    // userId is the server's to set: a body naming another owner is ignored.
    const note = await add(a.token, { title: 'A 的备忘', content: '给张同学回电话', userId: b.userId });
    expect(note.userId).toBe(a.userId);

    for (const token of [b.token, admin]) {
      const list = await s.call('GET', `${BASE}/list`, { token, query: { pageSize: 100 } });
      expect(list.body.code).toBe(200);
      expect((list.body.rows as Memo[]).map((m) => m.memoId)).not.toContain(note.memoId);
      expect((await s.call('GET', `${BASE}/${note.memoId}`, { token })).body).toMatchObject({ code: 500, msg: '没有权限访问备忘录数据！' });
      const edit = await s.call('PUT', BASE, { token, body: { ...note, title: '改掉' } });
      expect(edit.body.msg).toBe('没有权限访问备忘录数据！');
      expect((await s.call('DELETE', `${BASE}/${note.memoId}`, { token })).body.msg).toBe('没有权限访问备忘录数据！');
    }
    const stored = (await s.call<Memo>('GET', `${BASE}/${note.memoId}`, { token: a.token })).body.data as Memo;
    expect(stored).toMatchObject({ title: 'A 的备忘', content: '给张同学回电话', version: note.version });

    // The owner changes and deletes it.
    const edit = await s.call('PUT', BASE, { token: a.token, body: { ...stored, done: 'Y' } });
    expect(edit.body.code, edit.body.msg).toBe(200);
    expect((await s.call('DELETE', `${BASE}/${note.memoId}`, { token: a.token })).body.code).toBe(200);
    expect((await s.call('GET', `${BASE}/${note.memoId}`, { token: a.token })).body.msg).toBe('数据不存在或已被删除');
  });

  it('due notes: only the own, reached and not done, in /due and as the 到期备忘 to-do until marked done', async () => {
    const a = await staff();
    const b = await staff();
    const now = Date.now();
    const due = await add(a.token, { title: '到期的', remindAt: now - 60_000 });
    await add(a.token, { title: '未到期', remindAt: now + 3_600_000 });
    await add(a.token, { title: '无提醒' });
    await add(a.token, { title: '已完成', remindAt: now - 60_000, done: 'Y' });
    await add(b.token, { title: 'B 到期', remindAt: now - 60_000 });

    const dueList = await s.call<{ total: number; rows: Memo[] }>('GET', `${BASE}/due`, { token: a.token });
    expect(dueList.body.code).toBe(200);
    expect(dueList.body.data?.total).toBe(1);
    expect(dueList.body.data?.rows.map((m) => m.title)).toEqual(['到期的']);

    const tile = async () =>
      (
        (await s.call<{ todo: Array<{ key: string; count: number; component: string }> }>('POST', '/dev-api/api/index/index', { token: a.token })).body.data
          ?.todo ?? []
      ).find((t) => t.key === 'memo');
    expect(await tile()).toMatchObject({ count: 1, component: 'system/memo/index' });

    const done = await s.call('PUT', BASE, { token: a.token, body: { ...due, done: 'Y' } });
    expect(done.body.code, done.body.msg).toBe(200);
    expect((await s.call<{ total: number }>('GET', `${BASE}/due`, { token: a.token })).body.data?.total).toBe(0);
    // Nothing due: no tile (a reminder, not a work queue).
    expect(await tile()).toBeUndefined();
  });

  it('without the permission: 403', async () => {
    const db = s.app.db.kysely;
    await db
      .updateTable('sysUser')
      .set({ password: await hashPassword('secret123') })
      .where('userName', '=', 'operator')
      .execute();
    const menus = await db.selectFrom('sysMenu').select('menuId').where('perms', 'like', 'system:memo:%').execute();
    const role = await db.selectFrom('sysRole').select('roleId').where('roleKey', '=', 'operator').executeTakeFirstOrThrow();
    await db
      .deleteFrom('sysRoleMenu')
      .where('roleId', '=', role.roleId)
      .where(
        'menuId',
        'in',
        menus.map((m) => m.menuId),
      )
      .execute();
    const token = await s.login('operator', 'secret123');
    expect((await s.call('GET', `${BASE}/list`, { token })).body.code).toBe(403);
    expect((await s.call('GET', `${BASE}/due`, { token })).body.code).toBe(403);
    expect((await s.call('POST', BASE, { token, body: { title: 'x' } })).body.code).toBe(403);
  });
});
