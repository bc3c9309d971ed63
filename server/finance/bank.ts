import { sql } from 'kysely';
import { bankCardProblem, normaliseCardNo } from '../../common/finance/checks.js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { intParam, text } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { audit } from './audit.js';

/**
 * Bank accounts a store withdraws its collection wallet to (bankList / upBank). A new or changed account starts
 * unverified; headquarters marks it verified after checking it (a withdrawal goes only to a verified account).
 */

type Params = Record<string, unknown>;

/** Card numbers are shown masked everywhere but in the store's own edit form. */
export const maskCardNo = (no: string) => (no.length > 8 ? `${no.slice(0, 4)} **** **** ${no.slice(-4)}` : no);

export async function listBanks(db: Db, storeId: number | undefined) {
  let q = db
    .selectFrom('finBankAccount as b')
    .innerJoin('cusStore as s', 's.storeId', 'b.storeId')
    .select([
      'b.bankId',
      'b.storeId',
      's.storeName',
      'b.accountName',
      'b.bankName',
      'b.branch',
      'b.cardNo',
      'b.verified',
      'b.verifiedBy',
      'b.verifiedTime',
      'b.createTime',
      'b.version',
    ])
    .where('b.status', '=', '0');
  if (storeId !== undefined) q = q.where('b.storeId', '=', storeId);
  const rows = await q.orderBy('b.bankId', 'desc').execute();
  return rows.map((r) => ({
    ...r,
    cardNoMasked: maskCardNo(r.cardNo),
    verified: Number(r.verified) === 1,
    verifiedTime: r.verifiedTime == null ? null : Number(r.verifiedTime),
    createTime: Number(r.createTime),
  }));
}

/** upBank: adds (no bankId) or changes a bank account of the store; a change of number or holder needs verifying again. */
export async function saveBank(db: Db, actor: Actor, storeId: number, p: Params) {
  const accountName = text(p.accountName, 60, '开户名', true) as string;
  const bankName = text(p.bankName, 60, '开户银行', true) as string;
  const branch = text(p.branch, 100, '开户支行');
  const cardNo = normaliseCardNo(String(p.cardNo ?? ''));
  const problem = bankCardProblem(cardNo);
  if (problem) throw fail(problem);
  const bankId = intParam(p.bankId);
  return db.transaction().execute(async (trx) => {
    if (!bankId) {
      const count = await trx
        .selectFrom('finBankAccount')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('storeId', '=', storeId)
        .where('status', '=', '0')
        .executeTakeFirst();
      if (Number(count?.n ?? 0) >= 10) throw fail('每个门店最多保存 10 个银行账户');
      const row = await trx
        .insertInto('finBankAccount')
        .values({
          storeId,
          accountName,
          bankName,
          branch,
          cardNo,
          verified: 0,
          verifiedBy: null,
          verifiedTime: null,
          status: '0',
          createBy: actor.userName,
          createTime: Date.now(),
          version: 1,
        })
        .returning('bankId')
        .executeTakeFirstOrThrow();
      await audit(trx, actor, { targetType: 'bank', targetId: row.bankId, storeId, action: '新增银行账户', from: null, to: 0 });
      return { bankId: row.bankId };
    }
    const old = await trx.selectFrom('finBankAccount').selectAll().where('bankId', '=', bankId).where('status', '=', '0').executeTakeFirst();
    if (!old || old.storeId !== storeId) throw fail('银行账户不存在或已被删除');
    const reverify = old.cardNo !== cardNo || old.accountName !== accountName || old.bankName !== bankName;
    const version = intParam(p.version);
    let q = trx
      .updateTable('finBankAccount')
      .set({ accountName, bankName, branch, cardNo, version: sql`version + 1`, ...(reverify ? { verified: 0, verifiedBy: null, verifiedTime: null } : {}) })
      .where('bankId', '=', bankId);
    if (version !== undefined) q = q.where('version', '=', version);
    const res = await q.executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw fail('银行账户已被他人修改，请刷新后重试');
    await audit(trx, actor, {
      targetType: 'bank',
      targetId: bankId,
      storeId,
      action: reverify ? '修改银行账户（需重新核验）' : '修改银行账户',
      from: null,
      to: null,
    });
    return { bankId };
  });
}

export async function removeBank(db: Db, actor: Actor, storeId: number, bankId: number | undefined) {
  return db.transaction().execute(async (trx) => {
    const old = bankId
      ? await trx.selectFrom('finBankAccount').select(['storeId']).where('bankId', '=', bankId).where('status', '=', '0').executeTakeFirst()
      : undefined;
    if (!bankId || !old || old.storeId !== storeId) throw fail('银行账户不存在或已被删除');
    await trx.updateTable('finBankAccount').set({ status: '1', version: sql`version + 1` }).where('bankId', '=', bankId).execute();
    await audit(trx, actor, { targetType: 'bank', targetId: bankId, storeId, action: '删除银行账户', from: null, to: null });
  });
}

/** Headquarters marks an account verified (it checked the holder and number with the bank). */
export async function verifyBank(db: Db, actor: Actor, bankId: number | undefined) {
  return db.transaction().execute(async (trx) => {
    const old = bankId
      ? await trx.selectFrom('finBankAccount').select(['storeId', 'verified']).where('bankId', '=', bankId).where('status', '=', '0').executeTakeFirst()
      : undefined;
    if (!bankId || !old) throw fail('银行账户不存在或已被删除');
    if (Number(old.verified) === 1) throw fail('该银行账户已核验');
    await trx
      .updateTable('finBankAccount')
      .set({ verified: 1, verifiedBy: actor.userName, verifiedTime: Date.now(), version: sql`version + 1` })
      .where('bankId', '=', bankId)
      .execute();
    await audit(trx, actor, { targetType: 'bank', targetId: bankId, storeId: old.storeId, action: '核验银行账户', from: 0, to: 1 });
  });
}
