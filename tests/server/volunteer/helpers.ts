import { expect } from 'vitest';
import type { ChanceListRow } from '../../../common/volunteer/chances.js';
import type { ApiBody, CallOptions, TestServer } from '../harness.js';

/** Shared helpers of the volunteer API tests (plans, approvals, filling). */

export interface Tokens {
  admin: string;
  leader: string;
  expert: string;
  operator: string;
}

export async function loginAll(s: TestServer): Promise<Tokens> {
  return {
    admin: await s.login('admin', 'admin123'),
    leader: await s.login('leader', 'leader123'),
    expert: await s.login('expert', 'expert123'),
    operator: await s.login('operator', 'operator123'),
  };
}

/** POST with a token; returns the envelope. */
export async function api<D = unknown>(
  s: TestServer,
  token: string,
  url: string,
  body: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<ApiBody<D>> {
  const res = await s.call<D>('POST', url, { token, body, ...options });
  return res.body;
}

/** POST expecting code 200; returns data. */
export async function ok<D = unknown>(s: TestServer, token: string, url: string, body: Record<string, unknown> = {}): Promise<D> {
  const res = await api<D>(s, token, url, body);
  if (res.code !== 200) throw new Error(`${url}: ${res.code} ${res.msg}`);
  return res.data as D;
}

export async function studentId(s: TestServer, name: string): Promise<number> {
  const row = await s.app.db.kysely.selectFrom('volStudent').select('studentId').where('name', '=', name).executeTakeFirstOrThrow();
  return row.studentId;
}

/** Everything a plan action could change for a student: plan row, items, submissions, actions, the student row. */
export async function snapshot(s: TestServer, id: number) {
  const k = s.app.db.kysely;
  const plan = (await k.selectFrom('volPlan').selectAll().where('studentId', '=', id).executeTakeFirst()) ?? null;
  const items = plan ? await k.selectFrom('volPlanItem').selectAll().where('planId', '=', plan.planId).orderBy('sort').execute() : [];
  const submissions = await k.selectFrom('volPlanSubmission').selectAll().where('studentId', '=', id).orderBy('submissionId').execute();
  const actions = await k.selectFrom('volPlanAction').selectAll().where('studentId', '=', id).orderBy('actionId').execute();
  const student = await k.selectFrom('volStudent').selectAll().where('studentId', '=', id).executeTakeFirstOrThrow();
  return { plan, items, submissions, actions, student };
}

/** Runs a refused call: expects the code and message and that nothing about the student changed. */
export async function refused(s: TestServer, id: number, call: () => Promise<ApiBody>, msg: string | RegExp, code = 500) {
  const before = await snapshot(s, id);
  const res = await call();
  expect(res.code, `${res.msg}`).toBe(code);
  if (typeof msg === 'string') expect(res.msg).toBe(msg);
  else expect(res.msg).toMatch(msg);
  expect(await snapshot(s, id)).toEqual(before);
  return res;
}

/** Some line ids of the catalogue for plans: distinct, hardest first from a score band. */
export async function lineIds(s: TestServer, n: number, minScore = 560, maxScore = 640): Promise<number[]> {
  const rows = await s.app.db.kysely
    .selectFrom('gkAdmissionLine')
    .select('lineId')
    .where('minScore', '>=', minScore)
    .where('minScore', '<=', maxScore)
    .orderBy('minRank')
    .orderBy('lineId')
    .limit(n)
    .execute();
  return rows.map((r) => r.lineId);
}

/** Response shapes used by the tests (docs/volunteer-api.md). */
export type Tier = '冲' | '稳' | '保';

export interface StudentT {
  studentId: number;
  name: string;
  score: number | null;
  rank: number | null;
  rankFlag: string | null;
  subjects: number[];
  ownerId: number | null;
  planStatus: string;
  planVersion: number;
  version: number;
  preferences?: { regions: string[]; levels: string[]; majors: string[]; tuitionCap: number | null };
  plan?: { planId: number; status: string; version: number; itemCount: number } | null;
}

/** A row of the acceptance-rate answers (common/volunteer/chances.ts); autofill items also say which tier they fill. */
export type ChanceRowT = ChanceListRow & { filledFor?: Tier };

export interface ItemT {
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  majorName: string | null;
  tier: Tier | null;
  probability: number | null;
  currentTier?: Tier | null;
}

export interface PlanT {
  planId: number;
  status: string;
  version: number;
  itemCount: number;
  items: ItemT[];
  warnings: Array<{ code: string; message: string; positions: number[] }>;
}

export interface AutoT {
  items: ChanceRowT[];
  shortfalls: Array<{ tier: Tier; requested: number; own: number; borrowed: number; missing: number }>;
  effectiveCounts: Record<Tier, number>;
  notes: string[];
  warnings: Array<{ code: string; message: string }>;
}
