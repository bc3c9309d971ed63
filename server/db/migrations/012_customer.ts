import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * Customers and membership cards (server/customer/README.md, docs/customer.md).
 *  - cus_store: headquarters (store 1, system data) and agency stores; `balance` in integer fen, never negative,
 *    changed only through server/customer/storeBalance.ts, one cus_balance_log row per movement.
 *  - sys_user.store_id: the store a staff member belongs to (default headquarters).
 *  - vol_student gains the customer columns: the customer and the volunteer-planning student are one person.
 *  - card_counter / card_batch / card / card_action: card stock, consecutive numbers, hashed + encrypted secrets,
 *    the card state machine's audit trail. cus_action: the customer state machine's audit trail.
 *  - cus_memo, cus_message, cus_delivery, cus_appraisal: 备忘录, 消息, 客户资料 deliveries, 测评 results.
 */
export const migration012: Migration = {
  name: '012_customer',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('cus_store'), 'store_id', dialect)
      .addColumn('store_name', text, notNull)
      .addColumn('kind', text, (c) => c.notNull().defaultTo('agency')) // hq | agency
      .addColumn('balance', epoch, (c) => c.notNull().defaultTo(0)) // fen
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_time', epoch, notNull)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db
      .insertInto('cus_store' as never)
      .values({ store_id: 1, store_name: '总部', kind: 'hq', balance: 0, status: '0', create_time: Date.now(), version: 1 } as never)
      .execute();
    if (dialect === 'postgres') await sql`SELECT setval(pg_get_serial_sequence('cus_store', 'store_id'), 1)`.execute(db);

    await withId(db.schema.createTable('cus_balance_log'), 'log_id', dialect)
      .addColumn('store_id', 'integer', (c) => c.notNull().references('cus_store.store_id'))
      .addColumn('amount', epoch, notNull) // signed fen: + credit, - debit
      .addColumn('balance_after', epoch, notNull)
      .addColumn('reason', text, notNull)
      .addColumn('ref_type', text)
      .addColumn('ref_id', 'integer')
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('cus_balance_log_store').on('cus_balance_log').columns(['store_id', 'log_id']).execute();

    await db.schema
      .alterTable('sys_user')
      .addColumn('store_id', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    const student = [
      ['store_id', 'integer', 1],
      ['user_type', 'integer', 0],
      ['vip_pay_type', 'integer', 0],
      ['cus_status', text, 'active'],
    ] as const;
    for (const [name, type, def] of student) {
      await db.schema
        .alterTable('vol_student')
        .addColumn(name, type, (c) => c.notNull().defaultTo(def))
        .execute();
    }
    for (const [name, type] of [
      ['card_id', 'integer'],
      ['card_no', epoch],
      ['vip_expire_time', epoch],
      ['recycle_time', epoch],
      ['app_user_id', 'integer'],
      ['address', text],
      ['receiver', text],
      ['receiver_mobile', text],
    ] as const) {
      await db.schema.alterTable('vol_student').addColumn(name, type).execute();
    }
    // 用户列表 / 回收站: by state, newest first; a store's staff also by store.
    await db.schema.createIndex('vol_student_cus_status').on('vol_student').columns(['cus_status', 'student_id']).execute();
    await db.schema.createIndex('vol_student_store').on('vol_student').columns(['cus_status', 'store_id', 'student_id']).execute();
    await db.schema.createIndex('vol_student_app_user').on('vol_student').column('app_user_id').execute();

    await db.schema
      .createTable('card_counter')
      .addColumn('counter_id', 'integer', (c) => c.primaryKey())
      .addColumn('next_no', epoch, notNull)
      .execute();
    await db
      .insertInto('card_counter' as never)
      .values({ counter_id: 1, next_no: 10000001 } as never)
      .execute();

    await withId(db.schema.createTable('card_batch'), 'batch_id', dialect)
      .addColumn('store_id', 'integer', (c) => c.notNull().references('cus_store.store_id'))
      .addColumn('kind', 'integer', notNull)
      .addColumn('card_num', 'integer', notNull)
      .addColumn('vip_price', epoch, notNull) // fen per card
      .addColumn('total_fen', epoch, notNull)
      .addColumn('card_no_first', epoch, notNull)
      .addColumn('card_no_end', epoch, notNull)
      .addColumn('valid_days', 'integer', notNull)
      .addColumn('remark', text)
      .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('create_by', 'integer')
      .addColumn('create_by_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('card_batch_store').on('card_batch').columns(['store_id', 'batch_id']).execute();

    await withId(db.schema.createTable('card'), 'card_id', dialect)
      .addColumn('card_no', epoch, (c) => c.notNull().unique())
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('card_batch.batch_id'))
      .addColumn('store_id', 'integer', (c) => c.notNull().references('cus_store.store_id'))
      .addColumn('kind', 'integer', notNull)
      .addColumn('valid_days', 'integer', notNull)
      .addColumn('secret_hash', text, notNull) // HMAC-SHA256 with DATA_DIR/keys/card.key
      .addColumn('secret_enc', text, notNull) // AES-256-GCM, for the audited batch download only
      .addColumn('status', text, (c) => c.notNull().defaultTo('unused')) // unused | activated | expired | voided
      .addColumn('student_id', 'integer')
      .addColumn('activate_time', epoch)
      .addColumn('expire_time', epoch)
      .addColumn('void_time', epoch)
      .addColumn('create_time', epoch, notNull)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('card_batch_no').on('card').columns(['batch_id', 'card_no']).execute();
    await db.schema.createIndex('card_store_status').on('card').columns(['store_id', 'status', 'kind']).execute();
    await db.schema.createIndex('card_activate_time').on('card').column('activate_time').execute();
    await db.schema.createIndex('card_status_expire').on('card').columns(['status', 'expire_time']).execute();

    await withId(db.schema.createTable('card_action'), 'action_id', dialect)
      .addColumn('card_id', 'integer')
      .addColumn('batch_id', 'integer')
      .addColumn('store_id', 'integer')
      .addColumn('action', text, notNull) // release | activate | expire | void | transfer | download
      .addColumn('from_status', text)
      .addColumn('to_status', text)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('comment', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('card_action_card').on('card_action').column('card_id').execute();

    await withId(db.schema.createTable('cus_action'), 'action_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('action', text, notNull) // openCard | activate | reset | update | recycle | restore | purge | expire
      .addColumn('from_status', text)
      .addColumn('to_status', text)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('comment', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('cus_action_student').on('cus_action').column('student_id').execute();

    await withId(db.schema.createTable('cus_memo'), 'memo_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('content', text, notNull)
      .addColumn('create_by', 'integer')
      .addColumn('create_by_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('cus_memo_store').on('cus_memo').columns(['store_id', 'memo_id']).execute();

    await withId(db.schema.createTable('cus_message'), 'message_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('title', text, notNull)
      .addColumn('content', text, notNull)
      .addColumn('read_status', 'integer', (c) => c.notNull().defaultTo(0)) // 0 unread, 1 read (spec §4)
      .addColumn('read_time', epoch)
      .addColumn('create_by', 'integer')
      .addColumn('create_by_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('cus_message_student').on('cus_message').columns(['student_id', 'read_status']).execute();
    await db.schema.createIndex('cus_message_store').on('cus_message').columns(['store_id', 'message_id']).execute();

    await withId(db.schema.createTable('cus_delivery'), 'delivery_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('item', text, notNull)
      .addColumn('carrier', text, notNull)
      .addColumn('tracking_no', text, notNull)
      .addColumn('address', text)
      .addColumn('create_by', 'integer')
      .addColumn('create_by_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('cus_delivery_student').on('cus_delivery').column('student_id').execute();

    await withId(db.schema.createTable('cus_appraisal'), 'appraisal_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('answers', text, notNull) // JSON {questionId: optionKey}
      .addColumn('score', 'integer', notNull)
      .addColumn('result', text, notNull) // JSON {dimension: score}
      .addColumn('summary', text, notNull)
      .addColumn('expire_time', epoch, notNull)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('cus_appraisal_student').on('cus_appraisal').column('student_id').execute();
    await db.schema.createIndex('cus_appraisal_store').on('cus_appraisal').columns(['store_id', 'appraisal_id']).execute();
  },
};
