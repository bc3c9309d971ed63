import { sql } from 'kysely';
import type { EntityHooks } from '../engine/hooks.js';
import { assertDeptInScope, dataScopeCondition } from './dataScope.js';

/**
 * 部门管理 (schemas/system/sys_dept.json) under 数据权限, as RuoYi's dept list: the list shows only the departments of the
 * caller's data scope, and a department outside it can be neither changed, moved under, nor deleted
 * (没有权限访问部门数据！).
 */
export const deptHooks: EntityHooks = {
  listScope: ({ k, auth }) => dataScopeCondition(k, auth, { dept: sql.ref('t.dept_id') }),

  async beforeWrite({ ctx, values, existing }) {
    if (existing) await assertDeptInScope(ctx.k, ctx.auth, Number(existing.dept_id));
    // A new department, or one moved, must hang under a department in scope (a new root only for 全部数据权限).
    const parent = values.parentId;
    if (typeof parent === 'number' && (!existing || Number(existing.parent_id) !== parent)) await assertDeptInScope(ctx.k, ctx.auth, parent);
  },

  async beforeDelete(ctx, rows) {
    for (const row of rows) await assertDeptInScope(ctx.k, ctx.auth, Number(row.dept_id));
  },
};
