import type { FastPath, HeldPage } from '../../common/home/fastPath.js';
import type { Db } from '../db/types.js';
import type { AuthContext } from '../http/context.js';
import { fail } from '../http/envelope.js';
import { SUPER_ROLE } from '../security/access.js';

/** 快捷菜单 (index/fastPath): each user's shortcuts, picked from the pages of their own menu (docs/home.md). */
export const FAST_PATH_MAX = 12;

/** The visible, enabled pages (menu type C) the user's roles hold; the super admin holds every one. */
export async function heldPages(db: Db, auth: AuthContext): Promise<HeldPage[]> {
  const menus = await db
    .selectFrom('sysMenu')
    .select(['menuId', 'parentId', 'menuName', 'path', 'icon', 'component', 'menuType', 'visible', 'status', 'orderNum', 'isFrame'])
    .execute();
  let held: Set<number> | undefined;
  if (!auth.roles.includes(SUPER_ROLE)) {
    const rows = auth.roleIds.length ? await db.selectFrom('sysRoleMenu').select('menuId').distinct().where('roleId', 'in', auth.roleIds).execute() : [];
    held = new Set(rows.map((r) => r.menuId));
  }
  const byId = new Map(menus.map((m) => [m.menuId, m]));
  const pages: Array<HeldPage & { order: string }> = [];
  for (const m of menus) {
    if (m.menuType !== 'C' || m.status !== '0' || m.visible !== '0' || m.isFrame === 0) continue;
    if (held && !held.has(m.menuId)) continue;
    const parts: string[] = [];
    const order: number[] = [];
    let ok = true;
    for (let cur: typeof m | undefined = m; cur; cur = cur.parentId ? byId.get(cur.parentId) : undefined) {
      // A page under a disabled or hidden directory is not in the user's menu either.
      if (cur !== m && (cur.status !== '0' || cur.visible !== '0' || (held && !held.has(cur.menuId)))) ok = false;
      parts.unshift(cur.path.replace(/^\/+|\/+$/g, ''));
      order.unshift(cur.orderNum);
    }
    if (!ok) continue;
    pages.push({
      menuId: m.menuId,
      menuName: m.menuName,
      path: `/${parts.filter(Boolean).join('/')}`,
      icon: m.icon ?? '#',
      component: m.component,
      order: order.map((o) => String(o).padStart(4, '0')).join('.'),
    });
  }
  return pages.sort((a, b) => a.order.localeCompare(b.order)).map(({ order: _order, ...p }) => p);
}

/** The user's shortcuts (still held ones only, in their order) and every page they may pick from. */
export async function getFastPath(db: Db, auth: AuthContext): Promise<FastPath> {
  const choices = await heldPages(db, auth);
  const byId = new Map(choices.map((c) => [c.menuId, c]));
  const picked = await db.selectFrom('homeFastPath').select(['menuId']).where('userId', '=', auth.userId).orderBy('sort').execute();
  return { picked: picked.map((p) => byId.get(p.menuId)).filter((p): p is HeldPage => !!p), choices, max: FAST_PATH_MAX };
}

/** Replaces the user's shortcuts; every id must be a page of their own menu. */
export async function saveFastPath(db: Db, auth: AuthContext, menuIds: unknown) {
  if (!Array.isArray(menuIds)) throw fail('请选择快捷菜单');
  const ids = menuIds.map((v) => Number(v));
  if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw fail('菜单编号不正确');
  const unique = [...new Set(ids)];
  if (unique.length > FAST_PATH_MAX) throw fail(`快捷菜单最多 ${FAST_PATH_MAX} 个`);
  const held = new Set((await heldPages(db, auth)).map((p) => p.menuId));
  const foreign = unique.find((id) => !held.has(id));
  if (foreign !== undefined) throw fail(`菜单'${foreign}'不在您的菜单中，不能设为快捷菜单`);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('homeFastPath').where('userId', '=', auth.userId).execute();
    if (unique.length)
      await trx
        .insertInto('homeFastPath')
        .values(unique.map((menuId, i) => ({ userId: auth.userId, menuId, sort: i + 1, createTime: now })))
        .execute();
  });
  return getFastPath(db, auth);
}
