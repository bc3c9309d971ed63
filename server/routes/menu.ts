import type { FastifyInstance } from 'fastify';
import { fail, ok } from '../http/envelope.js';
import { allows, SUPER_ROLE } from '../security/access.js';
import { buildMenuTree, buildRouters } from '../services/router.js';

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

interface MenuBody {
  menuId?: number;
  parentId?: number;
  menuName: string;
  orderNum?: number;
  path?: string;
  component?: string | null;
  query?: string | null;
  isFrame?: number;
  isCache?: number;
  menuType: 'M' | 'C' | 'F';
  visible?: string;
  status?: string;
  perms?: string | null;
  icon?: string | null;
  activeMenu?: string | null;
}

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
  app.post('/dev-api/api/auth/getRuleList', { config: { permission: 'login' } }, async (request) => {
    const auth = request.auth!;
    const rows = auth.roles.includes(SUPER_ROLE) ? await allMenus() : await menusOfRoles(auth.roleIds);
    return ok(buildRouters(buildMenuTree(rows)), '操作成功', { permissions: auth.permissions, roles: auth.roles });
  });

  /** Every enabled menu of the platform (the store's rule tree): the console's list of all known routes. */
  app.post('/dev-api/api/auth/getStoreRule', { config: { permission: 'login' } }, async () => ok(buildRouters(buildMenuTree(await allMenus()))));

  /** Menu configuration: the full menu list (all types) as a tree for editing. */
  app.post('/dev-api/api/auth/menuConfig', { config: { permission: 'system:menu:list' } }, async () => {
    const rows = await db.selectFrom('sysMenu').selectAll().orderBy('parentId').orderBy('orderNum').execute();
    return ok(buildMenuTree(rows));
  });

  app.post<{ Body: MenuBody }>('/dev-api/api/auth/menuSave', { config: { permission: 'system:menu:edit' }, schema: { body: menuBody } }, async (request) => {
    const b = request.body;
    const auth = request.auth!;
    if (b.menuType !== 'F' && !b.path?.trim()) throw fail('路由地址不能为空');
    if (b.isFrame === 0 && b.path && !/^(https?:|mailto:|tel:)/.test(b.path)) throw fail(`菜单'${b.menuName}'失败，地址必须以http(s)://开头`);
    const parentId = b.parentId ?? 0;
    if (parentId !== 0) {
      const parent = await db.selectFrom('sysMenu').select(['menuId', 'menuType']).where('menuId', '=', parentId).executeTakeFirst();
      if (!parent) throw fail('上级菜单不存在');
      if (parent.menuType === 'F') throw fail('按钮下不能再添加菜单');
    }
    const values = {
      menuName: b.menuName.trim(),
      parentId,
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
    const sibling = await db.selectFrom('sysMenu').select('menuId').where('menuName', '=', values.menuName).where('parentId', '=', parentId).executeTakeFirst();
    if (sibling && sibling.menuId !== b.menuId) throw fail(`保存菜单'${values.menuName}'失败，菜单名称已存在`);
    if (b.menuId) {
      if (b.menuId === parentId) throw fail(`修改菜单'${values.menuName}'失败，上级菜单不能选择自己`);
      const res = await db.updateTable('sysMenu').set(values).where('menuId', '=', b.menuId).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail('菜单不存在或已被删除');
      return ok({ menuId: b.menuId }, '修改成功');
    }
    if (!allows(auth, 'system:menu:add')) throw fail('没有权限，请联系管理员授权（需要 system:menu:add）', 403);
    const row = await db
      .insertInto('sysMenu')
      .values({ ...values, routeName: null, affix: 0, createTime: Date.now(), remark: null })
      .returning('menuId')
      .executeTakeFirstOrThrow();
    return ok({ menuId: row.menuId }, '新增成功');
  });

  app.post<{ Body: { menuId: number } }>(
    '/dev-api/api/auth/menuDel',
    {
      config: { permission: 'system:menu:remove' },
      schema: { body: { type: 'object', required: ['menuId'], properties: { menuId: { type: 'integer', title: '菜单ID' } } } },
    },
    async (request) => {
      const { menuId } = request.body;
      const child = await db.selectFrom('sysMenu').select('menuId').where('parentId', '=', menuId).executeTakeFirst();
      if (child) throw fail('存在子菜单，不允许删除', 601);
      const assigned = await db.selectFrom('sysRoleMenu').select('roleId').where('menuId', '=', menuId).executeTakeFirst();
      if (assigned) throw fail('菜单已分配，不允许删除', 601);
      const res = await db.deleteFrom('sysMenu').where('menuId', '=', menuId).executeTakeFirst();
      if (Number(res.numDeletedRows) !== 1) throw fail('菜单不存在或已被删除');
      return ok(undefined, '删除成功');
    },
  );
}
