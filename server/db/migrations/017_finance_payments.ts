import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * Finance payments (server/finance/orders.ts, recharge.ts, coupons.ts, renewal.ts, reconcile.ts; docs/finance-payments.md).
 *  - fin_pay_order: one online payment (order number ours, trade number the provider's); created → paid →
 *    (refunded | closed), changed only by conditional UPDATEs on the status; amounts in integer fen.
 *  - fin_pay_notification: every provider notification received, with what came of it (applied, duplicate,
 *    rejected …): the reconciliation compares it with the orders and the ledger.
 *  - fin_pay_action: the audit trail of orders, recharges and coupon batches (who, when, from → to).
 *  - fin_recharge: 充值管理 — online (an order) or offline (a bank-transfer voucher headquarters confirms or rejects).
 *  - fin_coupon_batch / fin_coupon: coupon batches (amount off or discount) and the coupons users pulled; `remaining`
 *    only falls through a conditional UPDATE, and (batch, user, seq) is unique so a per-user limit holds under
 *    concurrency.
 *  - fin_sandbox_trade: the state kept by the built-in sandbox provider (the "outside" payment system in development).
 * Plus the job that closes unpaid orders after their timeout (handler in server/finance/jobs.ts), and for installs
 * seeded before this migration the new 财务管理 pages and buttons (a fresh database gets them from the seed).
 */
export const migration017: Migration = {
  name: '017_finance_payments',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await db.schema
      .createTable('fin_pay_order')
      .addColumn('order_no', text, (c) => c.primaryKey())
      .addColumn('purpose', text, notNull) // recharge | renewal | card_purchase | customer_payment
      .addColumn('store_id', 'integer', notNull)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('subject', text, notNull)
      .addColumn('provider', text, notNull) // sandbox | alipay | wechat | balance
      .addColumn('amount_fen', epoch, notNull) // what the payer pays
      .addColumn('original_fen', epoch, notNull) // before the coupon
      .addColumn('discount_fen', epoch, (c) => c.notNull().defaultTo(0))
      .addColumn('coupon_id', 'integer')
      .addColumn('status', text, (c) => c.notNull().defaultTo('created')) // created | paid | refunded | closed
      .addColumn('provider_trade_no', text)
      .addColumn('meta', text)
      .addColumn('pay_url', text)
      .addColumn('qr_code', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('expire_time', epoch, notNull)
      .addColumn('paid_time', epoch)
      .addColumn('close_time', epoch)
      .addColumn('refund_time', epoch)
      .addColumn('refund_reason', text)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_pay_order_status').on('fin_pay_order').columns(['status', 'expire_time']).execute();
    await db.schema.createIndex('fin_pay_order_store').on('fin_pay_order').columns(['store_id', 'create_time']).execute();
    await db.schema.createIndex('fin_pay_order_paid').on('fin_pay_order').column('paid_time').execute();
    await db.schema.createIndex('fin_pay_order_trade').unique().on('fin_pay_order').columns(['provider', 'provider_trade_no']).execute();

    await withId(db.schema.createTable('fin_pay_notification'), 'notify_id', dialect)
      .addColumn('provider', text, notNull)
      .addColumn('order_no', text)
      .addColumn('provider_trade_no', text)
      .addColumn('amount_fen', epoch)
      .addColumn('outcome', text, notNull) // applied | duplicate | rejected | forged | late
      .addColumn('message', text)
      .addColumn('received_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('fin_pay_notification_time').on('fin_pay_notification').column('received_time').execute();
    await db.schema.createIndex('fin_pay_notification_order').on('fin_pay_notification').column('order_no').execute();

    await withId(db.schema.createTable('fin_pay_action'), 'action_id', dialect)
      .addColumn('target_type', text, notNull) // order | recharge | coupon_batch
      .addColumn('target_id', text, notNull)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('action', text, notNull)
      .addColumn('from_status', text)
      .addColumn('to_status', text)
      .addColumn('detail', text)
      .addColumn('user_id', 'integer')
      .addColumn('user_name', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await db.schema.createIndex('fin_pay_action_target').on('fin_pay_action').columns(['target_type', 'target_id']).execute();

    await withId(db.schema.createTable('fin_recharge'), 'recharge_id', dialect)
      .addColumn('store_id', 'integer', notNull)
      .addColumn('method', text, notNull) // online | offline
      .addColumn('amount_fen', epoch, notNull)
      .addColumn('status', text, notNull) // created | pending | done | rejected | closed
      .addColumn('order_no', text)
      .addColumn('provider', text)
      .addColumn('voucher_url', text)
      .addColumn('voucher_name', text)
      .addColumn('remark', text)
      .addColumn('reason', text)
      .addColumn('create_user_id', 'integer')
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('review_by', text)
      .addColumn('review_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_recharge_store').on('fin_recharge').columns(['store_id', 'recharge_id']).execute();
    await db.schema.createIndex('fin_recharge_status').on('fin_recharge').columns(['status', 'recharge_id']).execute();
    await db.schema.createIndex('fin_recharge_order').on('fin_recharge').column('order_no').execute();

    await withId(db.schema.createTable('fin_coupon_batch'), 'batch_id', dialect)
      .addColumn('name', text, notNull)
      .addColumn('kind', text, notNull) // amount | discount
      .addColumn('amount_fen', epoch, (c) => c.notNull().defaultTo(0)) // amount off
      .addColumn('discount_pct', 'integer', (c) => c.notNull().defaultTo(100)) // percent paid (80 = 8 折)
      .addColumn('min_fen', epoch, (c) => c.notNull().defaultTo(0)) // order threshold
      .addColumn('valid_from', epoch, notNull)
      .addColumn('valid_to', epoch, notNull)
      .addColumn('total', 'integer', notNull)
      .addColumn('remaining', 'integer', notNull)
      .addColumn('per_user_limit', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('status', text, (c) => c.notNull().defaultTo('0')) // 0 发放中, 1 已停用
      .addColumn('create_by', text)
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();

    await withId(db.schema.createTable('fin_coupon'), 'coupon_id', dialect)
      .addColumn('batch_id', 'integer', (c) => c.notNull().references('fin_coupon_batch.batch_id'))
      .addColumn('user_id', 'integer', notNull)
      .addColumn('seq', 'integer', notNull) // the user's n-th coupon of the batch
      .addColumn('status', text, (c) => c.notNull().defaultTo('unused')) // unused | locked | used
      .addColumn('order_no', text)
      .addColumn('pull_time', epoch, notNull)
      .addColumn('use_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('fin_coupon_user_seq').unique().on('fin_coupon').columns(['batch_id', 'user_id', 'seq']).execute();
    await db.schema.createIndex('fin_coupon_user').on('fin_coupon').columns(['user_id', 'coupon_id']).execute();

    await db.schema
      .createTable('fin_sandbox_trade')
      .addColumn('trade_no', text, (c) => c.primaryKey())
      .addColumn('order_no', text, (c) => c.notNull().unique())
      .addColumn('amount_fen', epoch, notNull)
      .addColumn('subject', text, notNull)
      .addColumn('status', text, notNull) // WAIT | PAID | CLOSED | REFUNDED
      .addColumn('create_time', epoch, notNull)
      .addColumn('paid_time', epoch)
      .execute();

    await addPaymentMenus(db);

    const now = Date.now();
    await sql`insert into sys_job (job_name, job_group, handler_name, handler_params, cron_expression, misfire_policy, concurrent, status, remark, create_by, create_time, version)
      values ('关闭超时订单', 'DEFAULT', 'closeExpiredPayOrders', ${'{}'}, '0 */5 * * * ?', '3', '1', '0', '每 5 分钟关闭超过支付时限仍未支付的订单', 'admin', ${now}, 1)`.execute(
      db,
    );
  },
};

/** A raw row's id: the app's connection camel-cases result columns (menuId), a bare one does not (menu_id). */
type MenuRow = { menu_id?: number; menuId?: number };
const idOf = (row: MenuRow | undefined) => Number(row?.menu_id ?? row?.menuId);

const PAGES: Array<{ name: string; path: string; component: string; icon: string; perms: string; order: number; buttons: Array<[string, string]> }> = [
  {
    name: '账户续费',
    path: 'renewal',
    component: 'finance/renewal/index',
    icon: 'money',
    perms: 'finance:renewal:list',
    order: 7,
    buttons: [['续费', 'finance:renewal:pay']],
  },
  {
    name: '优惠券',
    path: 'coupon',
    component: 'finance/coupon/index',
    icon: 'shopping',
    perms: 'finance:coupon:list',
    order: 8,
    buttons: [['发放管理', 'finance:coupon:issue']],
  },
  {
    name: '对账',
    path: 'reconcile',
    component: 'finance/reconcile/index',
    icon: 'chart',
    perms: 'finance:reconcile:list',
    order: 9,
    buttons: [['导出', 'finance:reconcile:export']],
  },
];
const RECHARGE_BUTTONS: Array<[string, string]> = [
  ['充值', 'finance:recharge:apply'],
  ['充值审核', 'finance:recharge:review'],
];
/** Headquarters-only permissions: never granted to the store leader (as ROLE_GRANTS in server/db/seed/menus.ts). */
const HQ_ONLY = /^finance:[a-zA-Z]+:(review|issue|confirm)$/;

/**
 * Adds the payment pages (账户续费, 优惠券, 对账) and the 充值管理 buttons under an existing 财务管理 directory, each only
 * when missing, and grants the store-side ones to a leader role that holds 财务管理. Does nothing on an unseeded
 * database (the seed brings them) and nothing the second time.
 */
export async function addPaymentMenus(db: Kysely<unknown>): Promise<void> {
  const dir = (await sql<MenuRow>`select menu_id from sys_menu where path = 'finance' and parent_id = 0 and menu_type = 'M'`.execute(db)).rows[0];
  if (!dir) return;
  const now = Date.now();
  const leader = (
    await sql<{ role_id?: number; roleId?: number }>`select r.role_id from sys_role r join sys_role_menu rm on rm.role_id = r.role_id
      where r.role_key = 'leader' and rm.menu_id = ${idOf(dir)}`.execute(db)
  ).rows[0];
  const grant = async (menuId: number, perms: string) => {
    if (!leader || HQ_ONLY.test(perms)) return;
    await sql`insert into sys_role_menu (role_id, menu_id) values (${Number(leader.role_id ?? leader.roleId)}, ${menuId})`.execute(db);
  };
  const insert = async (row: {
    name: string;
    parentId: number;
    order: number;
    path: string;
    component: string | null;
    type: 'C' | 'F';
    perms: string;
    icon: string;
  }) => {
    const made =
      await sql<MenuRow>`insert into sys_menu (menu_name, parent_id, order_num, path, component, is_frame, is_cache, menu_type, visible, status, perms, icon, affix, create_time)
      values (${row.name}, ${row.parentId}, ${row.order}, ${row.path}, ${row.component}, 1, 0, ${row.type}, '0', '0', ${row.perms}, ${row.icon}, 0, ${now})
      returning menu_id`.execute(db);
    const menuId = idOf(made.rows[0]);
    await grant(menuId, row.perms);
    return menuId;
  };
  const buttons = async (parentId: number, list: Array<[string, string]>) => {
    for (const [i, [name, perms]] of list.entries()) {
      const has = (await sql<MenuRow>`select menu_id from sys_menu where parent_id = ${parentId} and perms = ${perms}`.execute(db)).rows[0];
      if (!has) await insert({ name, parentId, order: i + 1, path: '', component: null, type: 'F', perms, icon: '#' });
    }
  };
  for (const p of PAGES) {
    const found = (await sql<MenuRow>`select menu_id from sys_menu where component = ${p.component}`.execute(db)).rows[0];
    const pageId = found
      ? idOf(found)
      : await insert({ name: p.name, parentId: idOf(dir), order: p.order, path: p.path, component: p.component, type: 'C', perms: p.perms, icon: p.icon });
    await buttons(pageId, p.buttons);
  }
  const recharge = (await sql<MenuRow>`select menu_id from sys_menu where component = 'finance/rechargeManage/index'`.execute(db)).rows[0];
  if (recharge) await buttons(idOf(recharge), RECHARGE_BUTTONS);
}
