import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Migration } from './helpers.js';

/**
 * 角色管理 (docs/architecture.md): the departments of a role's custom data scope (RuoYi sys_role_dept; data_scope
 * '2' 自定数据权限). Link rows go with their role or department.
 */
export const migration006: Migration = {
  name: '006_role_dept',
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    await db.schema
      .createTable('sys_role_dept')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('sys_role.role_id').onDelete('cascade'))
      .addColumn('dept_id', 'integer', (c) => c.notNull().references('sys_dept.dept_id').onDelete('cascade'))
      .addPrimaryKeyConstraint('sys_role_dept_pk', ['role_id', 'dept_id'])
      .execute();
    await db.schema.createIndex('sys_role_dept_dept').on('sys_role_dept').column('dept_id').execute();
  },
};
