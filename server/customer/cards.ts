import { sql } from 'kysely';
import type { ReleaseResult } from '../../common/customer/cards.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { idList, intParam, paging, text } from '../http/params.js';
import { type Actor, assertStore } from '../security/actor.js';
import { requireStore } from '../security/storeScope.js';
import { type CardKeys, decryptSecret, encryptSecret, hashSecret, newSecret, verifySecret } from './cardSecrets.js';
import { recordCustomerAction } from './customerActions.js';
import { CARD_KINDS, CARD_STATUS_NAMES, cardNoParam, DAY_MS, MAX_RELEASE, PAY_BACKEND_BINDS, PAY_ONLINE, PAY_USER_BINDS } from './rules.js';
import { debit, storeBalance } from './storeBalance.js';

/** Rows per INSERT while making a batch (15 columns × 500 = 7,500 bind parameters; both databases allow far more). */
const CHUNK = 500;

export interface ReleaseInput {
  storeId?: unknown;
  kind?: unknown;
  card_num?: unknown;
  vip_price?: unknown;
  remark?: unknown;
}

export interface ReleaseRequest {
  storeId: number;
  kind: number;
  cardNum: number;
  vipPrice: number;
  remark: string | null;
}

/** Checks a release before anything is written (the transaction checks the balance again, authoritatively). */
export async function checkRelease(db: Db, actor: Actor, input: ReleaseInput): Promise<ReleaseRequest> {
  const kind = intParam(input.kind);
  const spec = kind != null ? CARD_KINDS[kind] : undefined;
  if (kind == null || !spec) throw fail('请选择卡类型（志愿卡 1、升学卡 2、体验卡 3）');
  const cardNum = intParam(input.card_num);
  if (cardNum == null || cardNum < 1 || cardNum > MAX_RELEASE || String(cardNum) !== String(input.card_num).trim())
    throw fail(`发卡数量应为 1 到 ${MAX_RELEASE} 之间的整数`);
  const vipPrice = intParam(input.vip_price);
  if (vipPrice !== spec.price) throw fail('卡价已变更，请刷新后重试');
  const storeId = intParam(input.storeId) ?? requireStore(actor);
  assertStore(actor, storeId, '余额');
  const store = await db.selectFrom('cusStore').select(['storeId', 'status']).where('storeId', '=', storeId).executeTakeFirst();
  if (store?.status !== '0') throw fail('门店不存在或已停用');
  const remark = text(input.remark, 200, '备注');
  const total = vipPrice * cardNum;
  const balance = await storeBalance(db, storeId);
  if (balance < total) throw fail(`门店余额不足：需要 ${(total / 100).toFixed(2)} 元，当前余额 ${(balance / 100).toFixed(2)} 元`);
  return { storeId, kind, cardNum, vipPrice, remark };
}

/**
 * Makes a batch in ONE transaction: reserves `cardNum` consecutive numbers from the platform counter (the row lock
 * serialises concurrent releases), debits the store, writes the batch, the cards (each with a fresh secret, stored
 * hashed + encrypted) and the audit row. Any failure — 余额不足 included — leaves nothing behind.
 * `onProgress(made, total)` is called after each chunk (the console's progress bar, through the streamed answer).
 */
export async function releaseCards(
  db: Db,
  keys: CardKeys,
  actor: Actor,
  req: ReleaseRequest,
  onProgress: (made: number, total: number) => Promise<void> | void = () => {},
): Promise<ReleaseResult> {
  return db.transaction().execute((trx) => makeCards(trx, keys, actor, req, onProgress, 'balance'));
}

/**
 * A card a family paid for online (在线购卡, server/finance/orders.ts), in the payment's transaction: made like a
 * one-card release without a second debit (the order's ledger posting was the payment), in the family's store, and
 * activated for the family at once (pay type 3 在线购买) when they are a customer without a valid card. Otherwise it
 * stays unused in the store's stock, marked with the order, for staff to 开卡 — a payment is never refused here,
 * because the provider has already taken the money.
 */
export async function deliverPurchasedCard(
  trx: Db,
  keys: CardKeys,
  order: { orderNo: string; appUserId: number | null; userName: string; storeId: number; kind: number; priceFen: number },
) {
  const now = Date.now();
  const student = order.appUserId
    ? await trx
        .selectFrom('volStudent')
        .select(['studentId', 'storeId', 'cardId', 'vipExpireTime'])
        .where('appUserId', '=', order.appUserId)
        .where('cusStatus', '=', 'active')
        .executeTakeFirst()
    : undefined;
  const storeId = student?.storeId ?? order.storeId;
  const actor: Actor = { userId: order.appUserId ?? 0, userName: order.userName, roles: [], storeId, allStores: false };
  const made = await makeCards(
    trx,
    keys,
    actor,
    { storeId, kind: order.kind, cardNum: 1, vipPrice: order.priceFen, remark: `在线购卡 ${order.orderNo}` },
    () => {},
    'prepaid',
  );
  const hasValidCard = student?.cardId != null && student.vipExpireTime != null && student.vipExpireTime > now;
  if (student && !hasValidCard) {
    const activated = await activateCard(trx, keys, null, { cardNo: made.cardNoFirst, studentId: student.studentId, payType: PAY_ONLINE });
    return { ...made, activated };
  }
  return { ...made, activated: null };
}

async function makeCards(
  trx: Db,
  keys: CardKeys,
  actor: Actor,
  req: ReleaseRequest,
  onProgress: (made: number, total: number) => Promise<void> | void,
  payment: 'balance' | 'prepaid',
): Promise<ReleaseResult> {
  const spec = CARD_KINDS[req.kind];
  const now = Date.now();
  await trx
    .updateTable('cardCounter')
    .set({ nextNo: sql`next_no + ${req.cardNum}` })
    .where('counterId', '=', 1)
    .execute();
  const counter = await trx.selectFrom('cardCounter').select('nextNo').where('counterId', '=', 1).executeTakeFirstOrThrow();
  const first = Number(counter.nextNo) - req.cardNum;
  const end = first + req.cardNum - 1;
  const total = req.vipPrice * req.cardNum;
  const batch = await trx
    .insertInto('cardBatch')
    .values({
      storeId: req.storeId,
      kind: req.kind,
      cardNum: req.cardNum,
      vipPrice: req.vipPrice,
      totalFen: total,
      cardNoFirst: first,
      cardNoEnd: end,
      validDays: spec.validDays,
      remark: req.remark,
      createBy: actor.userId,
      createByName: actor.userName,
      createTime: now,
    })
    .returning('batchId')
    .executeTakeFirstOrThrow();
  const batchId = Number(batch.batchId);
  const after =
    payment === 'balance'
      ? await debit(trx, {
          storeId: req.storeId,
          amount: total,
          reason: `发卡：${spec.name} ${req.cardNum} 张`,
          refType: 'card_batch',
          refId: batchId,
          userId: actor.userId,
          userName: actor.userName,
        })
      : await storeBalance(trx, req.storeId);
  for (let offset = 0; offset < req.cardNum; offset += CHUNK) {
    const rows = [];
    for (let no = first + offset; no < first + Math.min(offset + CHUNK, req.cardNum); no++) {
      const secret = newSecret();
      rows.push({
        cardNo: no,
        batchId,
        storeId: req.storeId,
        kind: req.kind,
        validDays: spec.validDays,
        secretHash: hashSecret(keys, no, secret),
        secretEnc: encryptSecret(keys, no, secret),
        status: 'unused',
        createTime: now,
        version: 1,
      });
    }
    await trx.insertInto('card').values(rows).execute();
    await onProgress(offset + rows.length, req.cardNum);
  }
  await trx
    .insertInto('cardAction')
    .values({
      cardId: null,
      batchId,
      storeId: req.storeId,
      action: 'release',
      fromStatus: null,
      toStatus: 'unused',
      userId: actor.userId,
      userName: actor.userName,
      comment: `${spec.name} ${first}–${end}，共 ${req.cardNum} 张，${(total / 100).toFixed(2)} 元`,
      createTime: now,
    })
    .execute();
  return { batchId, cardNoFirst: String(first), cardNoEnd: String(end), card_num: req.cardNum, totalFen: total, storeBalance: after };
}

/** 发卡 screen data (spec §3 Card release): the store's balance, unused stock per kind and the kinds' prices. */
export async function releaseInfo(db: Db, actor: Actor, storeIdParam: unknown) {
  const storeId = intParam(storeIdParam) ?? requireStore(actor);
  assertStore(actor, storeId, '余额');
  const store = await db.selectFrom('cusStore').select(['storeId', 'storeName', 'balance']).where('storeId', '=', storeId).executeTakeFirst();
  if (!store) throw fail('门店不存在');
  const stock = await db
    .selectFrom('card')
    .select(['kind', (eb) => eb.fn.countAll().as('n')])
    .where('storeId', '=', storeId)
    .where('status', '=', 'unused')
    .groupBy('kind')
    .execute();
  const unused = (kind: number) => Number(stock.find((s) => Number(s.kind) === kind)?.n ?? 0);
  const stores = actor.allStores
    ? await db.selectFrom('cusStore').select(['storeId', 'storeName', 'balance']).where('status', '=', '0').orderBy('storeId').execute()
    : [store];
  return {
    storeId: store.storeId,
    storeName: store.storeName,
    storeBalance: Number(store.balance),
    no_vip_num: unused(1),
    no_vip_sx_num: unused(2),
    no_vip_ty_num: unused(3),
    kinds: Object.entries(CARD_KINDS).map(([k, v]) => ({ kind: Number(k), name: v.name, vip_price: v.price, validDays: v.validDays })),
    stores: stores.map((s) => ({ storeId: s.storeId, storeName: s.storeName, storeBalance: Number(s.balance) })),
    maxRelease: MAX_RELEASE,
  };
}

/** 发卡记录: batches, newest first, in the actor's store scope. */
export async function listBatches(db: Db, actor: Actor, q: Record<string, unknown>) {
  const { pageSize, offset } = paging(q);
  let base = db.selectFrom('cardBatch as b').innerJoin('cusStore as s', 's.storeId', 'b.storeId');
  if (!actor.allStores) base = base.where('b.storeId', '=', actor.storeId);
  const store = intParam(q.storeId);
  if (store != null) base = base.where('b.storeId', '=', store);
  const kind = intParam(q.kind);
  if (kind != null) base = base.where('b.kind', '=', kind);
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base.selectAll('b').select('s.storeName').orderBy('b.batchId', 'desc').limit(pageSize).offset(offset).execute();
  return {
    rows: rows.map((r) => ({
      ...r,
      cardNoFirst: String(r.cardNoFirst),
      cardNoEnd: String(r.cardNoEnd),
      kindName: CARD_KINDS[r.kind]?.name ?? String(r.kind),
      vipPrice: Number(r.vipPrice),
      totalFen: Number(r.totalFen),
    })),
    total,
  };
}

/**
 * The audited 下载 of a batch: every card with its secret (decrypted here, never stored in clear), status and
 * customer. Writes a card_action 'download' row and counts the download on the batch.
 */
export async function batchForDownload(db: Db, keys: CardKeys, actor: Actor, batchIdParam: unknown) {
  const batchId = intParam(batchIdParam);
  if (batchId == null) throw fail('请选择发卡记录');
  const batch = await db.selectFrom('cardBatch').selectAll().where('batchId', '=', batchId).executeTakeFirst();
  if (!batch) throw fail('发卡记录不存在');
  assertStore(actor, batch.storeId, '发卡记录');
  // A batch is made in one release, with one card key: if its first card decrypts, all do. Checked before the audit
  // and the stream, so a card key missing from DATA_DIR/keys is a clear refusal, not a cut-off file.
  const first = await db.selectFrom('card').select(['cardNo', 'secretEnc']).where('batchId', '=', batchId).orderBy('cardNo').limit(1).executeTakeFirst();
  if (first) {
    try {
      decryptSecret(keys, Number(first.cardNo), first.secretEnc);
    } catch {
      throw fail('该批卡的卡密无法解密：服务器上缺少发卡时使用的卡密密钥。请联系系统管理员恢复密钥文件（见“密钥轮换”说明）后重试');
    }
  }
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('cardBatch').set({ downloadCount: sql`download_count + 1` }).where('batchId', '=', batchId).execute();
    await trx
      .insertInto('cardAction')
      .values({
        cardId: null,
        batchId,
        storeId: batch.storeId,
        action: 'download',
        fromStatus: null,
        toStatus: null,
        userId: actor.userId,
        userName: actor.userName,
        comment: `下载卡号 ${batch.cardNoFirst}–${batch.cardNoEnd}（含卡密）`,
        createTime: Date.now(),
      })
      .execute();
  });
  return {
    batch,
    async *rows() {
      // Keyset pages of 1000 by card number: flat memory for a 20,000-card batch on both databases.
      let after = -1;
      for (;;) {
        const page = await db
          .selectFrom('card as c')
          .leftJoin('volStudent as s', 's.studentId', 'c.studentId')
          .select(['c.cardNo', 'c.secretEnc', 'c.status', 'c.activateTime', 'c.expireTime', 's.name'])
          .where('c.batchId', '=', batchId)
          .where('c.cardNo', '>', after)
          .orderBy('c.cardNo')
          .limit(1000)
          .execute();
        if (!page.length) return;
        after = Number(page[page.length - 1].cardNo);
        for (const c of page)
          yield {
            cardNo: String(c.cardNo),
            secret: decryptSecret(keys, Number(c.cardNo), c.secretEnc),
            kind: CARD_KINDS[batch.kind]?.name ?? '',
            status: CARD_STATUS_NAMES[c.status] ?? c.status,
            customer: c.name ?? '',
            activateTime: c.activateTime,
            expireTime: c.expireTime,
          };
      }
    },
  };
}

/** 卡片二: cards by state with filters. */
export async function listCards(db: Db, actor: Actor, q: Record<string, unknown>) {
  const { pageSize, offset } = paging(q);
  let base = db.selectFrom('card as c').innerJoin('cusStore as st', 'st.storeId', 'c.storeId').leftJoin('volStudent as s', 's.studentId', 'c.studentId');
  if (!actor.allStores) base = base.where('c.storeId', '=', actor.storeId);
  const store = intParam(q.storeId);
  if (store != null) base = base.where('c.storeId', '=', store);
  const status = typeof q.status === 'string' && q.status ? q.status : undefined;
  if (status) {
    if (!CARD_STATUS_NAMES[status]) throw fail('卡状态不正确');
    base = base.where('c.status', '=', status);
  }
  const kind = intParam(q.kind);
  if (kind != null) base = base.where('c.kind', '=', kind);
  const batch = intParam(q.batchId);
  if (batch != null) base = base.where('c.batchId', '=', batch);
  const cardNo = typeof q.cardNo === 'string' ? q.cardNo.trim() : '';
  if (cardNo) base = base.where('c.cardNo', '=', cardNoParam(cardNo));
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select([
      'c.cardId',
      'c.cardNo',
      'c.batchId',
      'c.storeId',
      'st.storeName',
      'c.kind',
      'c.status',
      'c.studentId',
      's.name as studentName',
      'c.activateTime',
      'c.expireTime',
      'c.voidTime',
      'c.createTime',
      'c.version',
    ])
    .orderBy('c.cardNo', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute();
  const counts = await countByStatus(db, actor, store);
  return {
    rows: rows.map((r) => ({ ...r, cardNo: String(r.cardNo), kindName: CARD_KINDS[r.kind]?.name ?? '', statusName: CARD_STATUS_NAMES[r.status] ?? r.status })),
    total,
    counts,
  };
}

async function countByStatus(db: Db, actor: Actor, store: number | undefined) {
  let q = db.selectFrom('card').select(['status', (eb) => eb.fn.countAll().as('n')]);
  if (!actor.allStores) q = q.where('storeId', '=', actor.storeId);
  if (store != null) q = q.where('storeId', '=', store);
  const rows = await q.groupBy('status').execute();
  const out: Record<string, number> = { unused: 0, activated: 0, expired: 0, voided: 0 };
  for (const r of rows) out[r.status] = Number(r.n);
  return out;
}

async function cardAction(
  trx: Db,
  actor: Actor | null,
  c: { cardId: number; batchId: number; storeId: number },
  action: string,
  from: string,
  to: string,
  comment: string | null,
) {
  await trx
    .insertInto('cardAction')
    .values({
      cardId: c.cardId,
      batchId: c.batchId,
      storeId: c.storeId,
      action,
      fromStatus: from,
      toStatus: to,
      userId: actor?.userId ?? null,
      userName: actor?.userName ?? '系统',
      comment,
      createTime: Date.now(),
    })
    .execute();
}

/** unused → voided, for cards in the actor's stores; any other state is refused by name. */
export async function voidCards(db: Db, actor: Actor, idsParam: unknown, reasonParam: unknown) {
  const ids = idList(idsParam);
  if (!ids.length) throw fail('请选择要作废的卡');
  const reason = text(reasonParam, 200, '作废原因');
  return db.transaction().execute((trx) => voidCardsInTransaction(trx, actor, ids, reason));
}

/** The void rule inside the caller's transaction (a 服务中心 card-refund work order voids and refunds in one). */
export async function voidCardsInTransaction(trx: Db, actor: Actor, ids: number[], reason: string | null) {
  const cards = await trx.selectFrom('card').selectAll().where('cardId', 'in', ids).execute();
  if (cards.length !== ids.length) throw fail('卡不存在');
  for (const c of cards) {
    assertStore(actor, c.storeId, '会员卡');
    if (c.status !== 'unused') throw fail(`卡号 ${c.cardNo} ${CARD_STATUS_NAMES[c.status] ?? c.status}，只有未使用的卡可以作废`);
    const res = await trx
      .updateTable('card')
      .set({ status: 'voided', voidTime: Date.now(), version: sql`version + 1` })
      .where('cardId', '=', c.cardId)
      .where('status', '=', 'unused')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail(`卡号 ${c.cardNo} 状态已变化，请刷新后重试`);
    await cardAction(trx, actor, c, 'void', 'unused', 'voided', reason);
  }
  return { voided: cards.length };
}

/**
 * Refunding an online card purchase takes its card back: the card made for the order (deliverPurchasedCard) is
 * voided while unused; an activated card has been used and the refund is refused. Runs in the refund's transaction.
 */
export async function takeBackPurchasedCard(trx: Db, orderNo: string, reason: string): Promise<void> {
  const cards = await trx
    .selectFrom('card')
    .innerJoin('cardBatch', 'cardBatch.batchId', 'card.batchId')
    .select(['card.cardId', 'card.cardNo', 'card.status', 'card.storeId'])
    .where('cardBatch.remark', '=', `在线购卡 ${orderNo}`)
    .execute();
  for (const c of cards) {
    if (c.status === 'voided') continue;
    if (c.status !== 'unused') throw fail(`该订单的会员卡 ${c.cardNo} ${CARD_STATUS_NAMES[c.status] ?? c.status}，不能退款`);
    const system: Actor = { userId: 0, userName: '订单退款', roles: [], storeId: c.storeId, allStores: true };
    await voidCardsInTransaction(trx, system, [c.cardId], `订单 ${orderNo} 退款：${reason}`);
  }
}

/** Moves unused cards to another store (headquarters only); the state stays unused and the move is audited. */
export async function transferCards(db: Db, actor: Actor, idsParam: unknown, toParam: unknown) {
  if (!actor.allStores) throw fail('只有总部可以在门店之间调拨会员卡');
  const ids = idList(idsParam);
  if (!ids.length) throw fail('请选择要调拨的卡');
  const to = intParam(toParam);
  const store =
    to != null ? await db.selectFrom('cusStore').select(['storeId', 'storeName', 'status']).where('storeId', '=', to).executeTakeFirst() : undefined;
  if (store?.status !== '0') throw fail('请选择调入门店');
  return db.transaction().execute(async (trx) => {
    const cards = await trx.selectFrom('card').selectAll().where('cardId', 'in', ids).execute();
    if (cards.length !== ids.length) throw fail('卡不存在');
    for (const c of cards) {
      if (c.status !== 'unused') throw fail(`卡号 ${c.cardNo} ${CARD_STATUS_NAMES[c.status] ?? c.status}，只有未使用的卡可以调拨`);
      if (c.storeId === store.storeId) throw fail(`卡号 ${c.cardNo} 已在${store.storeName}`);
      const res = await trx
        .updateTable('card')
        .set({ storeId: store.storeId, version: sql`version + 1` })
        .where('cardId', '=', c.cardId)
        .where('status', '=', 'unused')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) throw fail(`卡号 ${c.cardNo} 状态已变化，请刷新后重试`);
      await cardAction(trx, actor, c, 'transfer', 'unused', 'unused', `调拨：门店 ${c.storeId} → ${store.storeName}`);
    }
    return { transferred: cards.length };
  });
}

export interface ActivateInput {
  cardNo: unknown;
  /** The family's activation passes the secret; staff 开卡 does not (the card is in their hands, in their store). */
  secret?: unknown;
  studentId: number;
  payType: typeof PAY_USER_BINDS | typeof PAY_BACKEND_BINDS | typeof PAY_ONLINE;
}

/**
 * THE activation rule, for the family (/appv2, with the secret) and for staff (开卡): unused → activated once.
 * The UPDATE is conditional on status = 'unused' and its affected-row count decides, so of any number of concurrent
 * attempts exactly one wins; the customer's user type, pay type and expiry follow the card. Runs inside `trx`.
 */
export async function activateCard(trx: Db, keys: CardKeys, actor: Actor | null, input: ActivateInput) {
  const cardNo = cardNoParam(input.cardNo);
  const card = await trx.selectFrom('card').selectAll().where('cardNo', '=', cardNo).executeTakeFirst();
  if (input.secret !== undefined) {
    const secret = typeof input.secret === 'string' ? input.secret.trim() : '';
    if (!secret) throw fail('请输入卡密');
    // Same answer for an unknown number and a wrong secret: the call does not tell which numbers exist.
    if (!card || !verifySecret(keys, cardNo, secret, card.secretHash)) throw fail('卡号或卡密错误');
  } else if (!card) throw fail(`卡号 ${cardNo} 不存在`);
  if (!card) throw fail('卡号或卡密错误');
  if (card.status !== 'unused')
    throw fail(card.status === 'activated' ? '该卡已激活，不能重复使用' : `该卡${CARD_STATUS_NAMES[card.status] ?? card.status}，不能激活`);
  const student = await trx.selectFrom('volStudent').selectAll().where('studentId', '=', input.studentId).executeTakeFirst();
  if (student?.cusStatus !== 'active') throw fail('用户不存在或已删除');
  if (input.payType === PAY_BACKEND_BINDS && card.storeId !== student.storeId) throw fail('只能为本门店的用户开本门店的卡');
  const now = Date.now();
  if (student.cardId != null && student.vipExpireTime != null && student.vipExpireTime > now) throw fail('该用户已有有效的会员卡');
  const expireTime = now + card.validDays * DAY_MS;
  const res = await trx
    .updateTable('card')
    .set({ status: 'activated', studentId: student.studentId, activateTime: now, expireTime, version: sql`version + 1` })
    .where('cardId', '=', card.cardId)
    .where('status', '=', 'unused')
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) throw fail('该卡已激活，不能重复使用');
  await trx
    .updateTable('volStudent')
    .set({
      userType: card.kind,
      vipPayType: input.payType,
      cardId: card.cardId,
      cardNo: card.cardNo,
      vipExpireTime: expireTime,
      updateTime: now,
      version: sql`version + 1`,
    })
    .where('studentId', '=', student.studentId)
    .execute();
  await cardAction(
    trx,
    actor,
    card,
    'activate',
    'unused',
    'activated',
    `用户 ${student.name}（${input.payType === PAY_USER_BINDS ? '用户绑卡' : '后台开卡'}）`,
  );
  await recordCustomerAction(
    trx,
    actor,
    student.studentId,
    input.payType === PAY_USER_BINDS ? 'activate' : 'openCard',
    null,
    null,
    `卡号 ${card.cardNo}（${CARD_KINDS[card.kind]?.name}）`,
  );
  return { cardNo: String(card.cardNo), kind: card.kind, userType: card.kind, vipPayType: input.payType, expireTime };
}

/**
 * Card expiry (a scheduled job once server/monitor's runner exists): activated cards past their expiry become
 * expired, and their customers fall back to user type 0 (ordinary). Returns how many cards expired.
 */
export async function expireCards(db: Db, now = Date.now()): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx.selectFrom('card').selectAll().where('status', '=', 'activated').where('expireTime', '<', now).execute();
    for (const c of due) {
      const res = await trx
        .updateTable('card')
        .set({ status: 'expired', version: sql`version + 1` })
        .where('cardId', '=', c.cardId)
        .where('status', '=', 'activated')
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) continue;
      await cardAction(trx, null, c, 'expire', 'activated', 'expired', null);
      if (c.studentId != null) {
        await trx.updateTable('volStudent').set({ userType: 0, updateTime: now }).where('studentId', '=', c.studentId).where('cardId', '=', c.cardId).execute();
        await recordCustomerAction(trx, null, c.studentId, 'expire', null, null, `卡号 ${c.cardNo} 已过期`);
      }
    }
    return due.length;
  });
}

/** 卡数据: activations and expiries per day (UTC+8) between two dates, for the chart. */
export async function cardDaily(db: Db, actor: Actor, q: Record<string, unknown>) {
  const TZ = 8 * 3600_000;
  const parse = (v: unknown) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(`${v}T00:00:00+08:00`) : Number.NaN);
  const today = Math.floor((Date.now() + TZ) / DAY_MS) * DAY_MS - TZ;
  let begin = parse(q.beginTime);
  let end = parse(q.endTime);
  if (Number.isNaN(begin)) begin = today - 29 * DAY_MS;
  if (Number.isNaN(end)) end = today;
  if (end < begin) throw fail('结束日期不能早于开始日期');
  if ((end - begin) / DAY_MS > 366) throw fail('统计范围不能超过一年');
  const until = end + DAY_MS;
  let acts = db.selectFrom('card').select('activateTime as t').where('activateTime', '>=', begin).where('activateTime', '<', until);
  let exps = db
    .selectFrom('card')
    .select('expireTime as t')
    .where('status', 'in', ['activated', 'expired'])
    .where('expireTime', '>=', begin)
    .where('expireTime', '<', until);
  if (!actor.allStores) {
    acts = acts.where('storeId', '=', actor.storeId);
    exps = exps.where('storeId', '=', actor.storeId);
  }
  const days: Array<{ date: string; activated: number; expired: number }> = [];
  const index = new Map<number, number>();
  for (let d = begin; d <= end; d += DAY_MS) {
    index.set(d, days.length);
    days.push({ date: new Date(d + TZ).toISOString().slice(0, 10), activated: 0, expired: 0 });
  }
  const bucket = (t: number) => index.get(Math.floor((t + TZ) / DAY_MS) * DAY_MS - TZ);
  for (const r of await acts.execute()) {
    const i = bucket(Number(r.t));
    if (i != null) days[i].activated++;
  }
  for (const r of await exps.execute()) {
    const i = bucket(Number(r.t));
    if (i != null) days[i].expired++;
  }
  return { days, totals: { activated: days.reduce((n, d) => n + d.activated, 0), expired: days.reduce((n, d) => n + d.expired, 0) } };
}
