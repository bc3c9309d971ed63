import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/** Users, roles, menus, departments, posts, sessions, login log, SMS codes and platform info. */
export const migration001: Migration = {
  name: '001_platform_core',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    const s = db.schema;
    await withId(s.createTable('sys_dept'), 'dept_id', dialect)
      .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('ancestors', text, (c) => c.notNull().defaultTo(''))
      .addColumn('dept_name', text, notNull)
      .addColumn('order_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('leader', text)
      .addColumn('phone', text)
      .addColumn('email', text)
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('del_flag', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_time', epoch, notNull)
      .execute();

    await withId(s.createTable('sys_user'), 'user_id', dialect)
      .addColumn('dept_id', 'integer')
      .addColumn('user_name', text, (c) => c.notNull().unique())
      .addColumn('nick_name', text, notNull)
      .addColumn('mobile', text)
      .addColumn('email', text)
      .addColumn('sex', text, (c) => c.notNull().defaultTo('2'))
      .addColumn('avatar', text)
      .addColumn('password', text)
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('del_flag', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('diagnosis', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('pwd_fail_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lock_until', epoch)
      .addColumn('login_ip', text)
      .addColumn('login_date', epoch)
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('remark', text)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await s.createIndex('sys_user_mobile').on('sys_user').column('mobile').execute();

    await withId(s.createTable('sys_role'), 'role_id', dialect)
      .addColumn('role_name', text, notNull)
      .addColumn('role_key', text, (c) => c.notNull().unique())
      .addColumn('role_sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('data_scope', text, (c) => c.notNull().defaultTo('1'))
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('del_flag', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_time', epoch, notNull)
      .addColumn('remark', text)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await withId(s.createTable('sys_menu'), 'menu_id', dialect)
      .addColumn('menu_name', text, notNull)
      .addColumn('parent_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('order_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('path', text, (c) => c.notNull().defaultTo(''))
      .addColumn('component', text)
      .addColumn('query', text)
      .addColumn('route_name', text)
      .addColumn('is_frame', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_cache', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('menu_type', text, notNull)
      .addColumn('visible', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('perms', text)
      .addColumn('icon', text)
      .addColumn('active_menu', text)
      .addColumn('affix', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('create_time', epoch, notNull)
      .addColumn('remark', text)
      .execute();

    await withId(s.createTable('sys_post'), 'post_id', dialect)
      .addColumn('post_code', text, (c) => c.notNull().unique())
      .addColumn('post_name', text, notNull)
      .addColumn('post_sort', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_time', epoch, notNull)
      .addColumn('remark', text)
      .execute();

    await s
      .createTable('sys_user_role')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('sys_user.user_id').onDelete('cascade'))
      .addColumn('role_id', 'integer', (c) => c.notNull().references('sys_role.role_id').onDelete('cascade'))
      .addPrimaryKeyConstraint('sys_user_role_pk', ['user_id', 'role_id'])
      .execute();
    await s
      .createTable('sys_role_menu')
      .addColumn('role_id', 'integer', (c) => c.notNull().references('sys_role.role_id').onDelete('cascade'))
      .addColumn('menu_id', 'integer', (c) => c.notNull().references('sys_menu.menu_id').onDelete('cascade'))
      .addPrimaryKeyConstraint('sys_role_menu_pk', ['role_id', 'menu_id'])
      .execute();
    await s
      .createTable('sys_user_post')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('sys_user.user_id').onDelete('cascade'))
      .addColumn('post_id', 'integer', (c) => c.notNull().references('sys_post.post_id').onDelete('cascade'))
      .addPrimaryKeyConstraint('sys_user_post_pk', ['user_id', 'post_id'])
      .execute();

    await s
      .createTable('sys_session')
      .addColumn('token_hash', text, (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('sys_user.user_id').onDelete('cascade'))
      .addColumn('user_name', text, notNull)
      .addColumn('ipaddr', text)
      .addColumn('browser', text)
      .addColumn('os', text)
      .addColumn('login_time', epoch, notNull)
      .addColumn('expire_time', epoch, notNull)
      .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await s.createIndex('sys_session_user').on('sys_session').column('user_id').execute();

    await withId(s.createTable('sys_logininfor'), 'info_id', dialect)
      .addColumn('user_name', text, notNull)
      .addColumn('status', text, notNull)
      .addColumn('ipaddr', text)
      .addColumn('browser', text)
      .addColumn('os', text)
      .addColumn('msg', text, notNull)
      .addColumn('login_time', epoch, notNull)
      .execute();

    await withId(s.createTable('sys_sms_code'), 'id', dialect)
      .addColumn('mobile', text, notNull)
      .addColumn('code_hash', text, notNull)
      .addColumn('purpose', text, notNull)
      .addColumn('expire_time', epoch, notNull)
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('create_time', epoch, notNull)
      .execute();
    await s.createIndex('sys_sms_code_mobile').on('sys_sms_code').column('mobile').execute();

    await s
      .createTable('sys_platform')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('title', text, notNull)
      .addColumn('expiredate', text, notNull)
      .addColumn('favicon', text)
      .addColumn('watermark', text)
      .addColumn('h5addr', text)
      .addColumn('logo', text)
      .addColumn('smalllogo', text)
      .addColumn('qr_url', text)
      .addColumn('kf_phone', text)
      .addColumn('pv', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('register_num', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('wxapp', text)
      .addColumn('appdown', text)
      .addColumn('gwaddr', text)
      .addColumn('app_id', text)
      .addColumn('store_id', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('toolboxaddr', text)
      .addColumn('tips_title', text)
      .addColumn('tips', text)
      .addColumn('gddesc', text)
      .addColumn('register_enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('update_time', epoch)
      .execute();
  },
};
