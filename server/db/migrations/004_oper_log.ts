import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * The operation log (RuoYi sys_oper_log: who did what, from where, with which parameters and answer, how long it
 * took; business_type 0 other, 1 add, 2 edit, 3 delete, 5 export, 6 import, 9 clean; status 0 ok, 1 failed), and
 * sys_schema_state: which table columns the schema engine (server/engine) created, added or adopted.
 */
export const migration004: Migration = {
  name: '004_oper_log',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('sys_oper_log'), 'oper_id', dialect)
      .addColumn('title', text, (c) => c.notNull().defaultTo(''))
      .addColumn('business_type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('method', text, (c) => c.notNull().defaultTo(''))
      .addColumn('request_method', text, (c) => c.notNull().defaultTo(''))
      .addColumn('oper_name', text, (c) => c.notNull().defaultTo(''))
      .addColumn('oper_url', text, (c) => c.notNull().defaultTo(''))
      .addColumn('oper_ip', text, (c) => c.notNull().defaultTo(''))
      .addColumn('oper_param', text) // at most 2000 characters, secrets masked
      .addColumn('json_result', text) // at most 2000 characters
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error_msg', text)
      .addColumn('oper_time', epoch, notNull)
      .addColumn('cost_time', epoch, (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('sys_oper_log_time').on('sys_oper_log').column('oper_time').execute();
    await db.schema.createIndex('sys_oper_log_type').on('sys_oper_log').column('business_type').execute();

    await db.schema
      .createTable('sys_schema_state')
      .addColumn('table_name', text, notNull)
      .addColumn('column_name', text, notNull)
      .addColumn('property', text, notNull) // '' for columns that are no property (the soft-delete flag)
      .addColumn('kind', text, notNull) // text | integer | number | boolean | json
      .addColumn('origin', text, notNull) // created | added | adopted (the column existed before the engine)
      .addColumn('schema_id', text, notNull)
      .addColumn('updated_at', epoch, notNull)
      .addPrimaryKeyConstraint('sys_schema_state_pk', ['table_name', 'column_name'])
      .execute();
  },
};
