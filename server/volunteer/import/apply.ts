import type { Insertable, Kysely, Transaction } from 'kysely';
import { SHANDONG_BATCH, SHANDONG_TRACK } from '../../db/seed/admission.js';
import type { AdmissionLineTable, Database } from '../../db/types.js';
import { fail } from '../../http/envelope.js';
import { invalidateCatalogue } from '../catalogue.js';
import { rerankStudents } from '../rerank.js';
import { type ImportKind, KIND_NAMES, type LineRow, type Parsed, parseLines, parseRankTable, parseSchools, parseSubjects, type RowError } from './parse.js';

/**
 * Writes one checked admission file into the gk_* tables in one transaction (server/volunteer/import/README.md).
 * Any bad row refuses the whole file with the row-level report (ApiError extra `errors`, `errorCount`): nothing is
 * written. Lines are upserted (a year's line keeps its id, so plans and favourites that point at it stay valid).
 */

export interface ImportRequest {
  province: string;
  kind: ImportKind;
  /** The data year (lines, rank table); subject requirements apply to the newest year's lines. */
  year?: number | null;
  csv: string;
  batch?: string;
  track?: string;
}

export interface ImportReport {
  kind: ImportKind;
  province: string;
  year: number | null;
  rows: number;
  inserted: number;
  updated: number;
  /** Rows kept out with the reason (a line without a rank cannot be placed on the score scale). */
  skipped: Array<{ row: number; reason: string }>;
  /** Lines of the year that the file did not mention (left as they were). */
  untouched: number;
  /** Schools added from a lines file because the school list did not have them yet (name only). */
  schoolsAdded: number;
  /** rankTable: students moved to this table (their exam year's own, or the newest for a later year without one). */
  rerankedStudents?: number;
  notes: string[];
}

const BATCH = 500;
type Db = Kysely<Database>;

function refuse(kind: ImportKind, parsed: Parsed<unknown>): never {
  const first = parsed.errors[0];
  throw fail(
    `${KIND_NAMES[kind]}导入失败：共 ${parsed.errorCount} 处错误，未写入任何数据。第 ${first.row} 行${first.column ? ` ${first.column}` : ''}：${first.message}`,
    500,
    { errors: parsed.errors, errorCount: parsed.errorCount },
  );
}

function requireYear(year: unknown): number {
  const y = Number(year);
  if (!Number.isInteger(y) || y < 2000 || y > 2100) throw fail('请填写数据年份（2000 到 2100 之间的整数）');
  return y;
}

async function inBatches<T>(rows: T[], fn: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await fn(rows.slice(i, i + BATCH));
}

/** The score whose cumulative count is nearest to the rank (how the 2025 data set derived its min scores). */
export function scoreAtRank(segments: Array<{ score: number; cumulativeRank: number }>, rank: number): number {
  let best = segments[0];
  for (const s of segments) if (Math.abs(s.cumulativeRank - rank) < Math.abs(best.cumulativeRank - rank)) best = s;
  return best.score;
}

export async function importAdmission(db: Db, req: ImportRequest, now = Date.now()): Promise<ImportReport> {
  const province = req.province?.trim();
  if (!province) throw fail('请选择省份');
  if (!(req.kind in KIND_NAMES)) throw fail('导入类型不正确（可选：lines、rankTable、schools、subjects）');
  if (typeof req.csv !== 'string' || !req.csv.trim()) throw fail('请上传 CSV 文件内容');
  const exists = await db.selectFrom('gkProvince').select('province').where('province', '=', province).executeTakeFirst();
  if (!exists) throw fail(`暂无「${province}」的省份设置，请先添加省份`);
  const batch = req.batch?.trim() || SHANDONG_BATCH;
  const track = req.track?.trim() || SHANDONG_TRACK;
  const base = { kind: req.kind, province, rows: 0, inserted: 0, updated: 0, skipped: [], untouched: 0, schoolsAdded: 0, notes: [] };
  const report: ImportReport = await db.transaction().execute(async (trx) => {
    switch (req.kind) {
      case 'schools':
        return { ...base, year: null, ...(await importSchools(trx, province, req.csv)) };
      case 'rankTable':
        return { ...base, year: requireYear(req.year), ...(await importRankTable(trx, province, track, requireYear(req.year), req.csv)) };
      case 'lines':
        return { ...base, year: requireYear(req.year), ...(await importLines(trx, province, batch, track, requireYear(req.year), req.csv, now)) };
      case 'subjects':
        return { ...base, ...(await importSubjects(trx, province, batch, req.csv)) };
    }
  });
  invalidateCatalogue(db);
  return report;
}

async function importSchools(trx: Transaction<Database>, province: string, csv: string) {
  const parsed = parseSchools(csv);
  if (parsed.errorCount) refuse('schools', parsed);
  const existing = new Set((await trx.selectFrom('gkSchool').select('schoolCode').where('examProvince', '=', province).execute()).map((s) => s.schoolCode));
  let updated = 0;
  const fresh = [];
  for (const s of parsed.rows) {
    const values = {
      name: s.name,
      province: s.province,
      city: s.city,
      level: s.level,
      tags: s.tags,
      isPublic: s.ownership === '公办' ? 1 : s.ownership === '民办' || s.ownership === '中外合作办学' ? 0 : null,
      ownership: s.ownership,
      authority: s.authority,
    };
    if (existing.has(s.schoolCode)) {
      await trx.updateTable('gkSchool').set(values).where('examProvince', '=', province).where('schoolCode', '=', s.schoolCode).execute();
      updated++;
    } else fresh.push({ examProvince: province, schoolCode: s.schoolCode, ...values });
  }
  await inBatches(fresh, (b) => trx.insertInto('gkSchool').values(b).execute());
  return { rows: parsed.rows.length, inserted: fresh.length, updated };
}

async function importRankTable(trx: Transaction<Database>, province: string, track: string, year: number, csv: string) {
  const parsed = parseRankTable(csv, year);
  if (parsed.errorCount) refuse('rankTable', parsed);
  const removed = await trx
    .deleteFrom('gkScoreSegment')
    .where('examProvince', '=', province)
    .where('year', '=', year)
    .where('track', '=', track)
    .executeTakeFirst();
  await inBatches(parsed.rows, (b) =>
    trx
      .insertInto('gkScoreSegment')
      .values(b.map((s) => ({ examProvince: province, year, track, score: s.score, cumulativeRank: s.cumulativeRank })))
      .execute(),
  );
  const notes: string[] = [];
  // The newest table's last count is the cohort the province's ranks are converted to.
  const newest = await trx
    .selectFrom('gkScoreSegment')
    .select((eb) => eb.fn.max('year').as('y'))
    .where('examProvince', '=', province)
    .executeTakeFirst();
  if (Number(newest?.y) === year) {
    const cohortSize = parsed.rows[parsed.rows.length - 1].cumulativeRank;
    await trx.updateTable('gkProvince').set({ cohortSize }).where('province', '=', province).execute();
    notes.push(`考生总数更新为 ${cohortSize}`);
  }
  // Students of this exam year (or a later one without its own table) are ranked in it from now on.
  const rerankedStudents = await rerankStudents(trx, province, year, track);
  if (rerankedStudents) notes.push(`${rerankedStudents} 名考生的位次已按 ${year} 年一分一段表重新换算`);
  const had = Number(removed.numDeletedRows);
  return {
    rows: parsed.rows.length,
    inserted: parsed.rows.length - Math.min(had, parsed.rows.length),
    updated: Math.min(had, parsed.rows.length),
    rerankedStudents,
    notes,
  };
}

async function importLines(trx: Transaction<Database>, province: string, batch: string, track: string, year: number, csv: string, now: number) {
  const parsed = parseLines(csv);
  if (parsed.errorCount) refuse('lines', parsed);
  const segments = await trx
    .selectFrom('gkScoreSegment')
    .select(['score', 'cumulativeRank'])
    .where('examProvince', '=', province)
    .where('year', '=', year)
    .where('track', '=', track)
    .orderBy('score', 'desc')
    .execute();
  if (segments.length === 0) throw fail(`请先导入${province} ${year} 年的一分一段表：投档线的最低分由位次换算`);

  // Schools the list does not have yet come in with their name, so every line has a school.
  const known = new Map(
    (await trx.selectFrom('gkSchool').select(['schoolCode', 'name']).where('examProvince', '=', province).execute()).map((s) => [s.schoolCode, s.name]),
  );
  const newSchools = new Map<string, string>();
  const renamed = new Map<string, [string, string]>();
  for (const l of parsed.rows) {
    const name = known.get(l.schoolCode);
    if (name == null) {
      if (!newSchools.has(l.schoolCode)) newSchools.set(l.schoolCode, l.schoolName);
    } else if (name !== l.schoolName && !renamed.has(l.schoolCode)) renamed.set(l.schoolCode, [name, l.schoolName]);
  }
  await inBatches([...newSchools], (b) =>
    trx
      .insertInto('gkSchool')
      .values(b.map(([schoolCode, name]) => ({ examProvince: province, schoolCode, name, province: null, city: null, level: null, tags: '', isPublic: null })))
      .execute(),
  );

  const current = await trx
    .selectFrom('gkAdmissionLine')
    .select(['lineId', 'schoolCode', 'majorCode', 'majorName'])
    .where('examProvince', '=', province)
    .where('year', '=', year)
    .where('batch', '=', batch)
    .where('track', '=', track)
    .orderBy('lineId')
    .execute();
  const byCode = new Map<string, number>();
  const byName = new Map<string, number[]>();
  for (const c of current) {
    if (c.majorCode) byCode.set(`${c.schoolCode}|${c.majorCode}`, c.lineId);
    else {
      const k = `${c.schoolCode}|${c.majorName ?? ''}`;
      byName.set(k, [...(byName.get(k) ?? []), c.lineId]);
    }
  }
  const skipped: Array<{ row: number; reason: string }> = [];
  const fresh: Insertable<AdmissionLineTable>[] = [];
  const used = new Set<number>();
  let updated = 0;
  // An optional column the file lacks (planCount in 2026, subjectRequirement before) leaves an updated line's value.
  const values = (l: LineRow & { minRank: number }) => ({
    majorCode: l.majorCode,
    majorName: l.majorName,
    minRank: l.minRank,
    minScore: scoreAtRank(segments, l.minRank),
    ...(parsed.columns.planCount ? { planCount: l.planCount } : {}),
    ...(parsed.columns.subjectRequirement ? { subjectReq: l.subjectReq } : {}),
  });
  for (const l of parsed.rows) {
    if (l.minRank == null) {
      skipped.push({ row: l.row, reason: '投档表未公布最低位次' });
      continue;
    }
    const withRank = l as LineRow & { minRank: number };
    const id = byCode.get(`${l.schoolCode}|${l.majorCode}`) ?? byName.get(`${l.schoolCode}|${l.majorName}`)?.find((i) => !used.has(i));
    if (id != null && !used.has(id)) {
      used.add(id);
      await trx.updateTable('gkAdmissionLine').set(values(withRank)).where('lineId', '=', id).execute();
      updated++;
    } else {
      fresh.push({
        examProvince: province,
        year,
        batch,
        track,
        schoolCode: l.schoolCode,
        groupCode: null,
        planCount: null,
        subjectReq: null,
        createTime: now,
        ...values(withRank),
      });
    }
  }
  await inBatches(fresh, (b) => trx.insertInto('gkAdmissionLine').values(b).execute());
  const notes = newSchools.size ? [`${newSchools.size} 所院校不在院校名单中，已按投档表的名称添加（请补充所在地等信息）`] : [];
  // A school renamed (院校代码 kept, e.g. 滨州医学院 → 山东医药大学 in 2026) carries the name of the newest 投档表, the
  // one families type their choices from; an older year's file leaves the name alone.
  const newestYear = await trx
    .selectFrom('gkAdmissionLine')
    .select((eb) => eb.fn.max('year').as('y'))
    .where('examProvince', '=', province)
    .where('batch', '=', batch)
    .executeTakeFirst();
  if (renamed.size && (newestYear?.y == null || Number(newestYear.y) <= year)) {
    for (const [schoolCode, [, name]] of renamed)
      await trx.updateTable('gkSchool').set({ name }).where('examProvince', '=', province).where('schoolCode', '=', schoolCode).execute();
    const sample = [...renamed.values()]
      .slice(0, 3)
      .map(([from, to]) => `${from} → ${to}`)
      .join('、');
    notes.push(`${renamed.size} 所院校按 ${year} 年投档表更名（${sample}${renamed.size > 3 ? ' 等' : ''}）`);
  }
  return { rows: parsed.rows.length, inserted: fresh.length, updated, skipped, untouched: current.length - used.size, schoolsAdded: newSchools.size, notes };
}

async function importSubjects(trx: Transaction<Database>, province: string, batch: string, csv: string) {
  const parsed = parseSubjects(csv);
  if (parsed.errorCount) refuse('subjects', parsed);
  const newest = await trx
    .selectFrom('gkAdmissionLine')
    .select((eb) => eb.fn.max('year').as('y'))
    .where('examProvince', '=', province)
    .where('batch', '=', batch)
    .executeTakeFirst();
  const year = newest?.y == null ? null : Number(newest.y);
  if (year == null) throw fail(`请先导入${province}的投档线：选科要求按院校和专业对应到最新一年的投档线`);
  const lines = await trx
    .selectFrom('gkAdmissionLine')
    .select(['lineId', 'schoolCode', 'majorCode', 'majorName', 'subjectReq'])
    .where('examProvince', '=', province)
    .where('year', '=', year)
    .where('batch', '=', batch)
    .execute();
  // The requirements are published for the coming year, whose 专业代号 can differ: matched by school and major name.
  // A line that carries its own requirement (a 投档表 with a subjectRequirement column, 2026 on) keeps it: this file
  // only fills the lines whose requirement is unknown.
  const req = new Map<string, string>();
  for (const s of parsed.rows) req.set(`${s.schoolCode}|${s.majorName}`, s.subjectReq);
  const groups = new Map<string, number[]>();
  let unmatched = 0;
  const own = lines.filter((l) => l.subjectReq != null).length;
  for (const l of lines) {
    if (l.subjectReq != null) continue;
    const r = req.get(`${l.schoolCode}|${l.majorName ?? ''}`);
    if (r == null) {
      unmatched++;
      continue;
    }
    groups.set(r, [...(groups.get(r) ?? []), l.lineId]);
  }
  let updated = 0;
  for (const [subjectReq, ids] of groups) {
    await inBatches(ids, (b) => trx.updateTable('gkAdmissionLine').set({ subjectReq }).where('lineId', 'in', b).execute());
    updated += ids.length;
  }
  const notes = [`选科要求对应到 ${year} 年的投档线：${updated} 条已对应，${unmatched} 条在选科要求表中没有同名专业`];
  if (own) notes.push(`${own} 条投档线已有投档表自带的选科要求，保持不变`);
  return { year, rows: parsed.rows.length, updated, untouched: unmatched, notes };
}

export type { RowError };
