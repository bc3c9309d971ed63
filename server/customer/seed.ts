import type { Kysely } from 'kysely';
import { SHANDONG } from '../db/seed/admission.js';
import type { Database } from '../db/types.js';
import { post } from '../finance/index.js';
import { hashPassword } from '../security/password.js';
import { newUserRow } from '../system/index.js';
import { prepareSegmentTable, rankForScore } from '../volunteer/index.js';

/**
 * Demo stores (first start only, inside the seed transaction): headquarters (store 1, made by migration 012) gets a
 * balance, and two agency stores are added with theirs. Balances are integer fen. With SEED=0 none of this happens
 * and headquarters starts at 0. Each demo balance is an 'opening' ledger posting from the outside world
 * (server/finance/ledger.ts keeps cus_store.balance in step as a mirror).
 */
export const DEMO_STORES = [
  { storeId: 2, storeName: '济南门店', balance: 5_000_000 },
  { storeId: 3, storeName: '青岛门店', balance: 2_000_000 },
] as const;
export const HQ_DEMO_BALANCE = 100_000_000;

/**
 * Staff of 济南门店 (store 2), documented in README "demo accounts", so the store story can be shown: a leader who
 * sees only the store's customers, cards and students, and an expert of the store. Explicit ids after the four
 * demo users (PostgreSQL's sequences are moved past them by the seed).
 */
export const AGENCY_STAFF = [
  { userId: 5, userName: 'store2leader', password: 'store2leader123', nickName: '刘店长', mobile: '13800000021', role: 2, deptId: 100 },
  { userId: 6, userName: 'store2expert', password: 'store2expert123', nickName: '陈老师', mobile: '13800000022', role: 3, deptId: 101 },
] as const;

/** Students of 济南门店: one served by its expert, one waiting for the store leader's distribution. */
export const AGENCY_STUDENTS = [
  { name: '周八', mobile: '13900000021', score: 606, subjects: '1,2,3', owner: 'store2expert' },
  { name: '吴九', mobile: '13900000022', score: 571, subjects: '4,5,6', owner: null },
] as const;

export async function seedCustomer(k: Kysely<Database>, now = Date.now()): Promise<void> {
  await seedStores(k, now);
  await seedAgencyStaff(k, now);
  await seedAgencyStudents(k, now);
}

async function seedAgencyStaff(k: Kysely<Database>, now: number): Promise<void> {
  const hashes = await Promise.all(AGENCY_STAFF.map((u) => hashPassword(u.password)));
  for (const [i, u] of AGENCY_STAFF.entries()) {
    await k
      .insertInto('sysUser')
      .values(
        newUserRow({
          userId: u.userId,
          deptId: u.deptId,
          userName: u.userName,
          nickName: u.nickName,
          mobile: u.mobile,
          password: hashes[i],
          createTime: now,
          remark: '济南门店演示账号',
          storeId: 2,
        }),
      )
      .execute();
    await k.insertInto('sysUserRole').values({ userId: u.userId, roleId: u.role }).execute();
  }
}

async function seedAgencyStudents(k: Kysely<Database>, now: number): Promise<void> {
  const segments = await k.selectFrom('gkScoreSegment').select(['year', 'score', 'cumulativeRank']).where('examProvince', '=', SHANDONG).execute();
  if (segments.length === 0) return;
  const year = Math.max(...segments.map((s) => s.year));
  const table = prepareSegmentTable(segments.filter((s) => s.year === year));
  const users = await k.selectFrom('sysUser').select(['userId', 'userName']).execute();
  const idOf = (name: string | null) => (name ? (users.find((u) => u.userName === name)?.userId ?? null) : null);
  for (const d of AGENCY_STUDENTS) {
    const lookup = rankForScore(table, d.score);
    await k
      .insertInto('volStudent')
      .values({
        name: d.name,
        mobile: d.mobile,
        province: SHANDONG,
        examYear: year,
        score: d.score,
        rank: lookup.rank,
        rankFlag: lookup.flag,
        subjects: d.subjects,
        preferRegions: '[]',
        preferLevels: '[]',
        preferMajors: '[]',
        tuitionCap: null,
        ownerId: idOf(d.owner),
        storeId: 2,
        remark: null,
        delFlag: '0',
        createBy: idOf('store2leader'),
        createTime: now,
        updateTime: now,
        version: 1,
      })
      .execute();
  }
}

async function seedStores(k: Kysely<Database>, now: number): Promise<void> {
  await opening(k, 1, HQ_DEMO_BALANCE);
  for (const s of DEMO_STORES) {
    await k
      .insertInto('cusStore')
      .values({ storeId: s.storeId, storeName: s.storeName, kind: 'agency', balance: 0, status: '0', createTime: now, version: 1 })
      .execute();
    await opening(k, s.storeId, s.balance);
    await k
      .insertInto('cusBalanceLog')
      .values({
        storeId: s.storeId,
        amount: s.balance,
        balanceAfter: s.balance,
        reason: '期初余额',
        refType: null,
        refId: null,
        userId: null,
        userName: '系统',
        createTime: now,
      })
      .execute();
  }
  await k
    .insertInto('cusBalanceLog')
    .values({
      storeId: 1,
      amount: HQ_DEMO_BALANCE,
      balanceAfter: HQ_DEMO_BALANCE,
      reason: '期初余额',
      refType: null,
      refId: null,
      userId: null,
      userName: '系统',
      createTime: now,
    })
    .execute();
}

async function opening(k: Kysely<Database>, storeId: number, amount: number): Promise<void> {
  await post(k, {
    type: 'opening',
    memo: '期初余额',
    refType: 'store',
    refId: String(storeId),
    idempotencyKey: `opening:${storeId}`,
    userName: '系统',
    lines: [
      { storeId: 0, kind: 'world', amount: -amount },
      { storeId, kind: 'balance', amount },
    ],
  });
}
