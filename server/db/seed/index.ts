import { type Insertable, type Kysely, sql } from 'kysely';
import { seedCustomer } from '../../customer/seed.js';
import { hashPassword, verifyPassword } from '../../security/password.js';
import { newUserRow } from '../../system/newUserRow.js';
import { seedVolunteer } from '../../volunteer/seed.js';
import type { Db } from '../connection.js';
import type { Database } from '../types.js';
import { SHANDONG, seedAdmission } from './admission.js';
import { type MenuSeed, ROLE_GRANTS, seededMenuRow } from './menus.js';
import { seededMenus } from './schemaMenus.js';

/**
 * What a database gets at start (docs/production.md, "What is created"):
 *  - system essentials, in every mode: the platform row (平台设置), the root department and the posts, the built-in
 *    roles, the menu tree with each built-in role's grants, and the reference admission data (the real Shandong 2025
 *    lines, schools and 一分一段 table). Without them a fresh install has no role for its first administrator and the
 *    sign-in page fails (issue 25: SEED=0 answered 系统内部错误). Dictionaries and 参数设置 come from the schemas'
 *    x-seed rows (server/engine/sync.ts), also in every mode. Each piece is written only where the database lacks it.
 *  - demo data, only when asked (SEED, off in production): accounts with published passwords, two agency stores with
 *    balances, their staff and students, demo families with a draft plan. Written once, on a database without users.
 */

/** Demo accounts, documented in README.md. */
export const DEMO_USERS = [
  { userName: 'admin', password: 'admin123', nickName: '系统管理员', mobile: '13800000000', role: 'admin', diagnosis: 1 },
  { userName: 'leader', password: 'leader123', nickName: '王主任', mobile: '13800000001', role: 'leader', diagnosis: 1 },
  { userName: 'expert', password: 'expert123', nickName: '李老师', mobile: '13800000002', role: 'expert', diagnosis: 0 },
  { userName: 'operator', password: 'operator123', nickName: '赵运营', mobile: '13800000003', role: 'operator', diagnosis: 0 },
] as const;

/** Built-in roles (system essentials); ROLE_GRANTS in menus.ts gives each its menus. */
export const BUILT_IN_ROLES = [
  { roleId: 1, roleName: '超级管理员', roleKey: 'admin', roleSort: 1 },
  { roleId: 2, roleName: '机构负责人', roleKey: 'leader', roleSort: 2 },
  { roleId: 3, roleName: '志愿专家', roleKey: 'expert', roleSort: 3 },
  { roleId: 4, roleName: '运营人员', roleKey: 'operator', roleSort: 4 },
  { roleId: 5, roleName: '普通用户', roleKey: 'common', roleSort: 5 },
] as const;

/** The root department (system essentials): the first administrator belongs to it; the demo departments sit under it. */
export const ROOT_DEPT_ID = 100;

interface FlatMenu {
  menuId: number;
  parentId: number;
  seed: MenuSeed;
  order: number;
}

function flatten(tree: MenuSeed[], parentId = 0, out: FlatMenu[] = []): FlatMenu[] {
  tree.forEach((seed, i) => {
    const menuId = out.length + 1;
    out.push({ menuId, parentId, seed, order: seed.order ?? i + 1 });
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

export interface SeedOptions {
  /** Also write the demo data (config.seed); default true, as for the scripts and benchmarks that call seed(db). */
  demo?: boolean;
  now?: number;
  /** The menu tree to seed (schemaMenus.ts: the bespoke entries plus the schemas' pages); default: that of schemas/. */
  menus?: MenuSeed[];
}

/**
 * Writes the system essentials the database lacks and, when asked, the demo data on a database without users.
 * Answers whether demo data was written (true once per fresh database). Several processes may start together on one
 * PostgreSQL database: an advisory lock makes them take turns, and each decides inside its own transaction.
 */
export async function seed(db: Db, { demo = true, now = Date.now(), menus }: SeedOptions = {}): Promise<boolean> {
  let wroteDemo = false;
  let wrote = false;
  await db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(727021)`.execute(trx);
    wrote = await seedEssentials(trx, demo, now, menus);
    if (demo && !(await trx.selectFrom('sysUser').select('userId').limit(1).executeTakeFirst())) {
      await seedDemo(trx, now);
      wroteDemo = true;
    }
  });
  if (db.dialect === 'postgres' && (wrote || wroteDemo)) await resetSequences(db.kysely);
  return wroteDemo;
}

/** The platform row: neutral in a real install; the demo's contact details and notices only beside the demo data. */
function platformRow(demo: boolean, now: number): Insertable<Database['sysPlatform']> {
  return {
    id: 1,
    title: '志愿填报管理系统',
    expiredate: '2099-12-31',
    favicon: '/favicon.svg',
    watermark: '志愿填报',
    h5addr: demo ? 'https://h5.example.com' : null,
    logo: '/logo.svg',
    smalllogo: '/logo-small.svg',
    qrUrl: null,
    kfPhone: demo ? '400-000-0000' : null,
    pv: 0,
    registerNum: 0,
    wxapp: null,
    appdown: null,
    gwaddr: null,
    appId: 'zy-console',
    storeId: 1,
    toolboxaddr: '/toolbox/',
    tipsTitle: '使用提示',
    tips: demo
      ? '1. 左侧菜单按权限显示，看不到的功能请联系管理员授权\n2. 学生的志愿方案提交后需领导审批\n3. 如遇问题请拨打客服电话 400-000-0000'
      : '1. 左侧菜单按权限显示，看不到的功能请联系管理员授权\n2. 学生的志愿方案提交后需领导审批',
    gddesc: demo ? '欢迎使用志愿填报管理系统，2026 年山东普通类投档数据已更新，可为 2027 年高考填报志愿。' : null,
    // Self-registration makes accounts on the console: open in the demo, closed in a real install until an
    // administrator opens it in 系统管理 › 注册设置.
    registerEnabled: demo ? 1 : 0,
    updateTime: now,
  };
}

/** Each piece of the system essentials the database lacks; answers whether anything was written. */
async function seedEssentials(trx: Kysely<Database>, demo: boolean, now: number, menus?: MenuSeed[]): Promise<boolean> {
  let wrote = false;
  const none = async (table: 'sysPlatform' | 'sysDept' | 'sysPost' | 'sysRole' | 'sysMenu') =>
    !(await trx.selectFrom(table).select(sql<number>`1`.as('one')).limit(1).executeTakeFirst());

  if (await none('sysPlatform')) {
    await trx.insertInto('sysPlatform').values(platformRow(demo, now)).execute();
    wrote = true;
  }
  if (await none('sysDept')) {
    await trx
      .insertInto('sysDept')
      .values({
        deptId: ROOT_DEPT_ID,
        parentId: 0,
        ancestors: '0',
        deptName: '志愿填报咨询中心',
        orderNum: 0,
        leader: null,
        phone: null,
        email: null,
        status: '0',
        delFlag: '0',
        createTime: now,
      })
      .execute();
    wrote = true;
  }
  if (await none('sysPost')) {
    await trx
      .insertInto('sysPost')
      .values([
        { postId: 1, postCode: 'director', postName: '负责人', postSort: 1, status: '0', createTime: now, remark: null },
        { postId: 2, postCode: 'expert', postName: '志愿专家', postSort: 2, status: '0', createTime: now, remark: null },
        { postId: 3, postCode: 'operator', postName: '运营专员', postSort: 3, status: '0', createTime: now, remark: null },
      ])
      .execute();
    wrote = true;
  }
  // Roles and menus go in together, with the grants between them; an install that has either is brought up to date
  // by the start-up menu sync instead (menuSync.ts), which respects what its administrators changed.
  if ((await none('sysRole')) && (await none('sysMenu'))) {
    await trx
      .insertInto('sysRole')
      .values(BUILT_IN_ROLES.map((r) => ({ ...r, dataScope: '1', status: '0', delFlag: '0', createTime: now, remark: null, version: 1 })))
      .execute();
    const flat = flatten(menus ?? seededMenus());
    for (const chunk of chunks(flat, 50)) {
      await trx
        .insertInto('sysMenu')
        .values(chunk.map(({ menuId, parentId, seed: m, order }) => ({ menuId, ...seededMenuRow(m, parentId, order, now) })))
        .execute();
    }
    for (const [roleKey, grant] of Object.entries(ROLE_GRANTS)) {
      const role = BUILT_IN_ROLES.find((r) => r.roleKey === roleKey);
      if (!role) continue;
      const ids = grantedMenuIds(flat, grant);
      for (const chunk of chunks(ids, 200)) {
        await trx
          .insertInto('sysRoleMenu')
          .values(chunk.map((menuId) => ({ roleId: role.roleId, menuId })))
          .execute();
      }
    }
    wrote = true;
  }
  // Reference data, not demo data: the published Shandong 2025 admissions the 志愿 tools work from (the start-up
  // import then adds the other years, server/volunteer/import/history.ts).
  if (!(await trx.selectFrom('gkProvince').select('province').where('province', '=', SHANDONG).executeTakeFirst())) {
    await seedAdmission(trx, now);
    wrote = true;
  }
  return wrote;
}

/** The demo data; runs inside the seed transaction on a database without users, after the essentials. */
async function seedDemo(trx: Kysely<Database>, now: number): Promise<void> {
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));
  await trx
    .insertInto('sysDept')
    .values([
      {
        deptId: 101,
        parentId: ROOT_DEPT_ID,
        ancestors: `0,${ROOT_DEPT_ID}`,
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
        parentId: ROOT_DEPT_ID,
        ancestors: `0,${ROOT_DEPT_ID}`,
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
    // An install whose administrators made departments 101/102 keeps theirs.
    .onConflict((oc) => oc.column('deptId').doNothing())
    .execute();

  const roleIds = new Map(
    (await trx.selectFrom('sysRole').select(['roleId', 'roleKey']).where('delFlag', '=', '0').execute()).map((r) => [r.roleKey, Number(r.roleId)]),
  );
  const deptOf: Record<string, number> = { admin: ROOT_DEPT_ID, leader: ROOT_DEPT_ID, expert: 101, operator: 102 };
  for (const [i, u] of DEMO_USERS.entries()) {
    const userId = i + 1;
    await trx
      .insertInto('sysUser')
      .values(
        newUserRow({
          userId,
          deptId: deptOf[u.role],
          userName: u.userName,
          nickName: u.nickName,
          mobile: u.mobile,
          password: hashes[i],
          diagnosis: u.diagnosis,
          createTime: now,
          // The demo staff belong to headquarters (store 1, made by migration 012): they see every store.
          storeId: 1,
        }),
      )
      .execute();
    const roleId = roleIds.get(u.role);
    if (roleId !== undefined) await trx.insertInto('sysUserRole').values({ userId, roleId }).execute();
  }
  await seedVolunteer(trx, now); // demo students and one draft plan (vol_* tables)
  await seedCustomer(trx, now); // store balances, two agency stores, 济南门店's staff and students (server/customer/seed.ts)
}

/**
 * Whether the sign-in page may show the demo account: demo data is on and admin / admin123 still signs in (an
 * administrator who changed the password, or an install made without demo data, gets no hint).
 */
export async function demoSignInWorks(db: Kysely<Database>): Promise<boolean> {
  const admin = DEMO_USERS[0];
  const user = await db
    .selectFrom('sysUser')
    .select('password')
    .where('userName', '=', admin.userName)
    .where('delFlag', '=', '0')
    .where('status', '=', '0')
    .executeTakeFirst();
  return user ? verifyPassword(admin.password, user.password) : false;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Seeds insert explicit ids; move PostgreSQL's serial sequences past them so later inserts don't collide. An empty
 * table's sequence starts at 1 (is_called false), so the first administrator made by npm run admin:create is user 1.
 */
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
    await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column}), COALESCE(MAX(${sql.ref(column)}), 1), MAX(${sql.ref(column)}) IS NOT NULL) FROM ${sql.table(table)}`.execute(
      k,
    );
  }
}
