import { type Kysely, sql } from 'kysely';
import { seedCustomer } from '../../customer/seed.js';
import { hashPassword } from '../../security/password.js';
import { seedVolunteer } from '../../volunteer/seed.js';
import type { Db } from '../connection.js';
import type { Database } from '../types.js';
import { seedAdmission } from './admission.js';
import { MENU_TREE, type MenuSeed, ROLE_GRANTS, seededMenuRow } from './menus.js';

/** Demo accounts, documented in README.md. */
export const DEMO_USERS = [
  { userName: 'admin', password: 'admin123', nickName: '系统管理员', mobile: '13800000000', role: 'admin', diagnosis: 1 },
  { userName: 'leader', password: 'leader123', nickName: '王主任', mobile: '13800000001', role: 'leader', diagnosis: 1 },
  { userName: 'expert', password: 'expert123', nickName: '李老师', mobile: '13800000002', role: 'expert', diagnosis: 0 },
  { userName: 'operator', password: 'operator123', nickName: '赵运营', mobile: '13800000003', role: 'operator', diagnosis: 0 },
] as const;

export const DEMO_ROLES = [
  { roleId: 1, roleName: '超级管理员', roleKey: 'admin', roleSort: 1 },
  { roleId: 2, roleName: '机构负责人', roleKey: 'leader', roleSort: 2 },
  { roleId: 3, roleName: '志愿专家', roleKey: 'expert', roleSort: 3 },
  { roleId: 4, roleName: '运营人员', roleKey: 'operator', roleSort: 4 },
  { roleId: 5, roleName: '普通用户', roleKey: 'common', roleSort: 5 },
] as const;

interface FlatMenu {
  menuId: number;
  parentId: number;
  seed: MenuSeed;
  order: number;
}

function flatten(tree: MenuSeed[], parentId = 0, out: FlatMenu[] = []): FlatMenu[] {
  tree.forEach((seed, i) => {
    const menuId = out.length + 1;
    out.push({ menuId, parentId, seed, order: i + 1 });
    if (seed.children) flatten(seed.children, menuId, out);
  });
  return out;
}

/** Menu ids a role gets: every granted page/button, plus the directories above them. */
function grantedMenuIds(flat: FlatMenu[], grant: (perms: string) => boolean): number[] {
  const byId = new Map(flat.map((m) => [m.menuId, m]));
  const ids = new Set<number>();
  for (const m of flat) {
    if (!m.seed.perms || !grant(m.seed.perms)) continue;
    for (let cur: FlatMenu | undefined = m; cur && !ids.has(cur.menuId); cur = byId.get(cur.parentId)) ids.add(cur.menuId);
  }
  return [...ids].sort((a, b) => a - b);
}

/** Seeds a fresh database once; a database that already has users is left alone. */
export async function seed(db: Db, now = Date.now()): Promise<boolean> {
  const k = db.kysely;
  const existing = await k.selectFrom('sysUser').select('userId').limit(1).executeTakeFirst();
  if (existing) return false;
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));

  await k.transaction().execute(async (trx) => {
    await trx
      .insertInto('sysPlatform')
      .values({
        id: 1,
        title: '志愿填报管理系统',
        expiredate: '2099-12-31',
        favicon: '/favicon.svg',
        watermark: '志愿填报',
        h5addr: 'https://h5.example.com',
        logo: '/logo.svg',
        smalllogo: '/logo-small.svg',
        qrUrl: null,
        kfPhone: '400-000-0000',
        pv: 0,
        registerNum: 0,
        wxapp: null,
        appdown: null,
        gwaddr: null,
        appId: 'zy-console',
        storeId: 1,
        toolboxaddr: '/toolbox/',
        tipsTitle: '使用提示',
        tips: '1. 左侧菜单按权限显示，看不到的功能请联系管理员授权\n2. 学生的志愿方案提交后需领导审批\n3. 如遇问题请拨打客服电话 400-000-0000',
        gddesc: '欢迎使用志愿填报管理系统，2026 年山东普通类投档数据已更新，可为 2027 年高考填报志愿。',
        registerEnabled: 1,
        updateTime: now,
      })
      .execute();

    await trx
      .insertInto('sysDept')
      .values([
        {
          deptId: 100,
          parentId: 0,
          ancestors: '0',
          deptName: '志愿填报咨询中心',
          orderNum: 0,
          leader: '王主任',
          phone: '400-000-0000',
          email: null,
          status: '0',
          delFlag: '0',
          createTime: now,
        },
        {
          deptId: 101,
          parentId: 100,
          ancestors: '0,100',
          deptName: '专家部',
          orderNum: 1,
          leader: '李老师',
          phone: null,
          email: null,
          status: '0',
          delFlag: '0',
          createTime: now,
        },
        {
          deptId: 102,
          parentId: 100,
          ancestors: '0,100',
          deptName: '运营部',
          orderNum: 2,
          leader: '赵运营',
          phone: null,
          email: null,
          status: '0',
          delFlag: '0',
          createTime: now,
        },
      ])
      .execute();
    await trx
      .insertInto('sysPost')
      .values([
        { postId: 1, postCode: 'director', postName: '负责人', postSort: 1, status: '0', createTime: now, remark: null },
        { postId: 2, postCode: 'expert', postName: '志愿专家', postSort: 2, status: '0', createTime: now, remark: null },
        { postId: 3, postCode: 'operator', postName: '运营专员', postSort: 3, status: '0', createTime: now, remark: null },
      ])
      .execute();

    await trx
      .insertInto('sysRole')
      .values(DEMO_ROLES.map((r) => ({ ...r, dataScope: '1', status: '0', delFlag: '0', createTime: now, remark: null, version: 1 })))
      .execute();

    const deptOf: Record<string, number> = { admin: 100, leader: 100, expert: 101, operator: 102 };
    for (const [i, u] of DEMO_USERS.entries()) {
      const userId = i + 1;
      await trx
        .insertInto('sysUser')
        .values({
          userId,
          deptId: deptOf[u.role],
          userName: u.userName,
          nickName: u.nickName,
          mobile: u.mobile,
          email: null,
          sex: '2',
          avatar: null,
          password: hashes[i],
          status: '0',
          delFlag: '0',
          diagnosis: u.diagnosis,
          pwdFailCount: 0,
          lockUntil: null,
          loginIp: null,
          loginDate: null,
          createTime: now,
          updateTime: null,
          remark: null,
          version: 1,
          // The demo staff belong to headquarters (store 1, made by migration 012): they see every store.
          storeId: 1,
        })
        .execute();
      const role = DEMO_ROLES.find((r) => r.roleKey === u.role);
      if (role) await trx.insertInto('sysUserRole').values({ userId, roleId: role.roleId }).execute();
    }

    const flat = flatten(MENU_TREE);
    for (const chunk of chunks(flat, 50)) {
      await trx
        .insertInto('sysMenu')
        .values(chunk.map(({ menuId, parentId, seed: m, order }) => ({ menuId, ...seededMenuRow(m, parentId, order, now) })))
        .execute();
    }
    for (const [roleKey, grant] of Object.entries(ROLE_GRANTS)) {
      const role = DEMO_ROLES.find((r) => r.roleKey === roleKey);
      if (!role) continue;
      const ids = grantedMenuIds(flat, grant);
      for (const chunk of chunks(ids, 200)) {
        await trx
          .insertInto('sysRoleMenu')
          .values(chunk.map((menuId) => ({ roleId: role.roleId, menuId })))
          .execute();
      }
    }
    await seedAdmission(trx, now); // Shandong 2025 admission reference data (gk_* tables)
    await seedVolunteer(trx, now); // demo students and one draft plan (vol_* tables)
    await seedCustomer(trx, now); // store balances, two agency stores, 济南门店's staff and students (server/customer/seed.ts)
  });
  if (db.dialect === 'postgres') await resetSequences(k);
  return true;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Seeds insert explicit ids; move PostgreSQL's serial sequences past them so later inserts don't collide. */
async function resetSequences(k: Kysely<Database>): Promise<void> {
  const serials: Array<[string, string]> = [
    ['sys_user', 'user_id'],
    ['sys_role', 'role_id'],
    ['sys_menu', 'menu_id'],
    ['sys_dept', 'dept_id'],
    ['sys_post', 'post_id'],
    ['cus_store', 'store_id'],
  ];
  for (const [table, column] of serials) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), (SELECT COALESCE(MAX(${sql.ref(column)}), 1) FROM ${sql.table(table)}))`.execute(k);
  }
}
