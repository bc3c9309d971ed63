import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * 服务中心 work orders (server/service/README.md, docs/service.md). The apps, help articles, gallery materials and
 * resources are schema-engine tables (schemas/service/*.json); only the work order and its audit trail are here.
 *  - svc_work_order: one order of a store; `type` is spec §4's 1–7, `form` the console form it came from (eight forms,
 *    修改手机号 shares type 4 with 修改权限); `status` 0 pending, 1 processing, 2 handled, 3 rejected. `content` is the
 *    form's checked fields as JSON, `attachments` the stored files as JSON; `result` says what handling changed.
 *  - svc_work_order_log: every transition (submit, assign, handle, reject) with who, when and the reply.
 */
export const migration019: Migration = {
  name: '019_service',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('svc_work_order'), 'work_order_id', dialect)
      .addColumn('order_no', text, (c) => c.notNull().unique())
      .addColumn('type', 'integer', notNull)
      .addColumn('form', text, notNull)
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('store_id', 'integer', notNull)
      .addColumn('title', text, notNull)
      .addColumn('content', text, notNull)
      .addColumn('attachments', text, (c) => c.notNull().defaultTo('[]'))
      .addColumn('student_id', 'integer')
      .addColumn('card_no', epoch)
      .addColumn('ref_order_no', text)
      .addColumn('submit_by', 'integer', notNull)
      .addColumn('submit_by_name', text, notNull)
      .addColumn('assignee_id', 'integer')
      .addColumn('assignee_name', text)
      .addColumn('reply', text)
      .addColumn('result', text)
      .addColumn('handle_by', 'integer')
      .addColumn('handle_by_name', text)
      .addColumn('handle_time', epoch)
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('svc_work_order_status').on('svc_work_order').columns(['status', 'work_order_id']).execute();
    await db.schema.createIndex('svc_work_order_store').on('svc_work_order').columns(['store_id', 'status', 'work_order_id']).execute();

    await withId(db.schema.createTable('svc_work_order_log'), 'log_id', dialect)
      .addColumn('work_order_id', 'integer', notNull)
      .addColumn('action', text, notNull) // submit | assign | handle | reject
      .addColumn('from_status', 'integer')
      .addColumn('to_status', 'integer', notNull)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('comment', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('svc_work_order_log_order').on('svc_work_order_log').column('work_order_id').execute();
  },
};
