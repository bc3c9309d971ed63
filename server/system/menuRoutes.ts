import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { MenuSaveBody } from '../../common/menu/menuSave.js';
import { cached } from '../cache/index.js';
import { engineDb } from '../engine/store.js';
import { Code, fail, ok } from '../http/envelope.js';
import { allows, SUPER_ROLE } from '../security/access.js';
import { assertMenuWritable, type MenuDb, menuDeleteProblem } from './menuRules.js';
import { buildMenuTree, buildRouters } from './menuTree.js';

const menuBody = {
  type: 'object',
  required: ['menuName', 'menuType'],
  properties: {
    menuId: { type: 'integer', title: '菜单ID' },
    parentId: { type: 'integer', title: '上级菜单', minimum: 0 },
    menuName: { type: 'string', title: '菜单名称', minLength: 1, maxLength: 50 },
    orderNum: { type: 'integer', title: '显示排序', minimum: 0, maximum: 9999 },
    path: { type: 'string', title: '路由地址', maxLength: 200 },
    component: { type: ['string', 'null'], title: '组件路径', maxLength: 255 },
    query: { type: ['string', 'null'], title: '路由参数', maxLength: 255 },
    isFrame: { type: 'integer', title: '是否外链', enum: [0, 1] },
    isCache: { type: 'integer', title: '是否缓存', enum: [0, 1] },
    menuType: { type: 'string', title: '菜单类型', enum: ['M', 'C', 'F'] },
    visible: { type: 'string', title: '显示状态', enum: ['0', '1'] },
    status: { type: 'string', title: '菜单状态', enum: ['0', '1'] },
    perms: { type: ['string', 'null'], title: '权限字符', maxLength: 100 },
    icon: { type: ['string', 'null'], title: '菜单图标', maxLength: 100 },
    activeMenu: { type: ['string', 'null'], title: '高亮菜单', maxLength: 200 },
  },
} as const;

export async function menuRoutes(app: FastifyInstance) {
  const db = app.db.kysely;

  const allMenus = () => db.selectFrom('sysMenu').selectAll().where('status', '=', '0').execute();
  const menusOfRoles = (roleIds: number[]) =>
    roleIds.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('sysMenu as m')
          .innerJoin('sysRoleMenu as rm', 'rm.menuId', 'm.menuId')
          .selectAll('m')
          .distinct()
          .where('rm.roleId', 'in', roleIds)
          .where('m.status', '=', '0')
          .execute();

  /** The signed-in user's permissions and menu tree (router shape). */
  app.post('/dev-api/api/auth/getRuleList', { config: { permission: 'login', write: false } }, async (request) => {
    const auth = request.auth!;
    // The tree depends only on the role set; built once per set and menu generation (server/cache/; any menu or role
    // write clears it). Permissions and roles come from this request's access, never from the cache.
    const superUser = auth.roles.includes(SUPER_ROLE);
    const key = superUser ? 'rules:admin' : `rules:${[...auth.roleIds].sort((a, b) => a - b).join(',')}`;
    const routers = await cached(app, 'menu', key, async () => buildRouters(buildMenuTree(superUser ? await allMenus() : await menusOfRoles(auth.roleIds))));
    return ok(routers, '操作成功', { permissions: auth.permissions, roles: auth.roles });
  });

  /** Every enabled menu of the platform (the store's rule tree): the console's list of all known routes. */
  app.post('/dev-api/api/auth/getStoreRule', { config: { permission: 'login', write: false } }, async () =>
    ok(await cached(app, 'menu', 'store', async () => buildRouters(buildMenuTree(await allMenus())))),
  );

  /** Menu configuration (菜单配置 page): the full menu list (all types) as a tree for editing. */
  app.post('/dev-api/api/auth/menuConfig', { config: { permission: 'system:menu:config', write: false } }, async () => {
    const rows = await db.selectFrom('sysMenu').selectAll().orderBy('parentId').orderBy('orderNum').execute();
    return ok(buildMenuTree(rows));
  });

  app.post<{ Body: MenuSaveBody }>(
    '/dev-api/api/auth/menuSave',
    { config: { permission: 'system:menu:edit', write: true }, schema: { body: menuBody } },
    async (request) => {
      const b = request.body;
      const auth = request.auth!;
      const action = b.menuId ? '修改' : '新增';
      if (!b.menuId && !allows(auth, 'system:menu:add')) throw fail('没有权限，请联系管理员授权（需要 system:menu:add）', Code.FORBIDDEN);
      if (b.menuId && !(await db.selectFrom('sysMenu').select('menuId').where('menuId', '=', b.menuId).executeTakeFirst())) throw fail('菜单不存在或已被删除');
      const values = {
        menuName: b.menuName.trim(),
        parentId: b.parentId ?? 0,
        orderNum: b.orderNum ?? 0,
        path: b.path?.trim() ?? '',
        component: b.menuType === 'C' ? (b.component ?? null) : null,
        query: b.query ?? null,
        isFrame: b.isFrame ?? 1,
        isCache: b.isCache ?? 0,
        menuType: b.menuType,
        visible: b.visible ?? '0',
        status: b.status ?? '0',
        perms: b.perms ?? null,
        icon: b.icon ?? '#',
        activeMenu: b.activeMenu ?? null,
      };
      return db.transaction().execute(async (trx) => {
        // The same rules as 菜单管理 (server/system/menuRules.ts), read on the engine's view of the transaction.
        await assertMenuWritable(trx.withoutPlugins() as unknown as MenuDb, { ...values, menuId: b.menuId }, action);
        if (b.menuId) {
          await trx.updateTable('sysMenu').set(values).where('menuId', '=', b.menuId).execute();
          // 菜单管理 edits carry an optimistic version (schema engine): a change here makes an open edit there stale.
          await sql`update sys_menu set version = version + 1 where menu_id = ${b.menuId}`.execute(trx);
          return ok({ menuId: b.menuId }, '修改成功');
        }
        const row = await trx
          .insertInto('sysMenu')
          .values({ ...values, routeName: null, affix: 0, createTime: Date.now(), remark: null })
          .returning('menuId')
          .executeTakeFirstOrThrow();
        return ok({ menuId: row.menuId }, '新增成功');
      });
    },
  );

  app.post<{ Body: { menuId: number } }>(
    '/dev-api/api/auth/menuDel',
    {
      config: { permission: 'system:menu:remove', write: true },
      schema: { body: { type: 'object', required: ['menuId'], properties: { menuId: { type: 'integer', title: '菜单ID' } } } },
    },
    async (request) => {
      const { menuId } = request.body;
      // RuoYi answers these refusals as warnings (601).
      const problem = await menuDeleteProblem(engineDb(app.db), [menuId]);
      if (problem) throw fail(problem, Code.WARN);
      const res = await db.deleteFrom('sysMenu').where('menuId', '=', menuId).executeTakeFirst();
      if (Number(res.numDeletedRows) !== 1) throw fail('菜单不存在或已被删除');
      return ok(undefined, '删除成功');
    },
  );
}
