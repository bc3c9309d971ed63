import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { fail } from '../../http/envelope.js';
import { invalidateCatalogue } from '../catalogue.js';
import type { Parsed } from '../import/parse.js';
import { type GroupLineRow, parseGroupLines, parseTrackRankTable } from './parse.js';

/**
 * Import of a 3+1+2 province's 院校专业组 投档线 (kind groupLines) and per-track 一分一段 table (kind groupRankTable),
 * on the administrator's import route (/dev-api/volunteer/admission/import). Same contract as import/apply.ts:
 * every row is checked first; one bad row answers 500 with the row-level report and nothing is written; the rest
 * happens in one transaction.
 */

type Db = Kysely<Database>;
export type GroupImportKind = 'groupLines' | 'groupRankTable';
export const GROUP_KIND_NAMES: Record<GroupImportKind, string> = { groupLines: '院校专业组投档线', groupRankTable: '分科类一分一段表' };
export const isGroupKind = (k: unknown): k is GroupImportKind => k === 'groupLines' || k === 'groupRankTable';

export interface GroupImportReport {
  kind: GroupImportKind;
  province: string;
  year: number;
  rows: number;
  inserted: number;
  updated: number;
  /** Lines of the year that the file did not mention (left as they were). */
  untouched: number;
  schoolsAdded: number;
  notes: string[];
}

const BATCH = 400;

function refuse(kind: GroupImportKind, parsed: Parsed<unknown>): never {
  const first = parsed.errors[0];
  throw fail(
    `${GROUP_KIND_NAMES[kind]}导入失败：共 ${parsed.errorCount} 处错误，未写入任何数据。第 ${first.row} 行${first.column ? ` ${first.column}` : ''}：${first.message}`,
    500,
    { errors: parsed.errors, errorCount: parsed.errorCount },
  );
}

export async function importGroups(
  db: Db,
  req: { province: string; kind: GroupImportKind; year: unknown; csv: string },
  now = Date.now(),
): Promise<GroupImportReport> {
  const province = req.province.trim();
  if (!province) throw fail('请选择省份');
  if (!req.csv?.trim()) throw fail('请上传 CSV 文件内容');
  const year = Number(req.year);
  if (!Number.isInteger(year) || year < 2000 || year > 2100) throw fail('请填写数据年份（2000 到 2100 之间的整数）');
  const p = await db.selectFrom('gkProvince').select(['province', 'zyType']).where('province', '=', province).executeTakeFirst();
  if (!p) throw fail(`暂无「${province}」的省份设置，请先添加省份`);
  if (p.zyType !== 2) throw fail(`${province}不按院校专业组填报，请使用「投档线」导入`);
  const report: GroupImportReport = { kind: req.kind, province, year, rows: 0, inserted: 0, updated: 0, untouched: 0, schoolsAdded: 0, notes: [] };

  if (req.kind === 'groupRankTable') {
    const parsed = parseTrackRankTable(req.csv, year);
    if (parsed.errorCount) refuse(req.kind, parsed);
    report.rows = parsed.rows.length;
    await db.transaction().execute(async (trx) => {
      const tracks = [...new Set(parsed.rows.map((r) => r.track))];
      await trx.deleteFrom('gkScoreSegment').where('examProvince', '=', province).where('year', '=', year).where('track', 'in', tracks).execute();
      for (let i = 0; i < parsed.rows.length; i += BATCH)
        await trx
          .insertInto('gkScoreSegment')
          .values(
            parsed.rows.slice(i, i + BATCH).map((r) => ({ examProvince: province, year, track: r.track, score: r.score, cumulativeRank: r.cumulativeRank })),
          )
          .execute();
      const total = Math.max(...parsed.rows.map((r) => r.cumulativeRank));
      await trx.updateTable('gkProvince').set({ cohortSize: total }).where('province', '=', province).execute();
    });
    report.inserted = parsed.rows.length;
    invalidateCatalogue(db);
    return report;
  }

  const parsed = parseGroupLines(req.csv, year);
  if (parsed.errorCount) refuse(req.kind, parsed);
  report.rows = parsed.rows.length;
  await db.transaction().execute(async (trx) => {
    const schools = new Set((await trx.selectFrom('gkSchool').select('schoolCode').where('examProvince', '=', province).execute()).map((s) => s.schoolCode));
    const newSchools = new Map<string, string>();
    for (const r of parsed.rows) if (!schools.has(r.schoolCode) && !newSchools.has(r.schoolCode)) newSchools.set(r.schoolCode, r.schoolName);
    const schoolRows = [...newSchools].map(([schoolCode, name]) => ({
      examProvince: province,
      schoolCode,
      name,
      province: null,
      city: null,
      level: '本科',
      tags: '',
      isPublic: null,
    }));
    for (let i = 0; i < schoolRows.length; i += BATCH)
      await trx
        .insertInto('gkSchool')
        .values(schoolRows.slice(i, i + BATCH))
        .execute();
    report.schoolsAdded = schoolRows.length;

    // Lines keep their ids when imported again (plan items point at them): matched by track, school and group code.
    const existing = await trx
      .selectFrom('gkAdmissionLine')
      .select(['lineId', 'track', 'schoolCode', 'groupCode'])
      .where('examProvince', '=', province)
      .where('year', '=', year)
      .where('groupCode', 'is not', null)
      .execute();
    const byKey = new Map(existing.map((l) => [`${l.track}|${l.schoolCode}|${l.groupCode}`, l.lineId]));
    const fresh: GroupLineRow[] = [];
    const seen = new Set<number>();
    for (const r of parsed.rows) {
      const id = byKey.get(`${r.track}|${r.schoolCode}|${r.groupCode}`);
      if (id == null) {
        fresh.push(r);
        continue;
      }
      seen.add(id);
      await trx
        .updateTable('gkAdmissionLine')
        .set({ batch: r.batch, minScore: r.minScore, minRank: r.minRank, planCount: r.planCount, subjectReq: r.subjectReq, majorCode: r.groupCode })
        .where('lineId', '=', id)
        .execute();
      report.updated++;
    }
    const values = fresh.map((r) => ({
      examProvince: province,
      year,
      batch: r.batch,
      track: r.track,
      schoolCode: r.schoolCode,
      groupCode: r.groupCode,
      majorName: null,
      majorCode: r.groupCode,
      minScore: r.minScore,
      minRank: r.minRank,
      planCount: r.planCount,
      subjectReq: r.subjectReq,
      createTime: now,
    }));
    for (let i = 0; i < values.length; i += BATCH)
      await trx
        .insertInto('gkAdmissionLine')
        .values(values.slice(i, i + BATCH))
        .execute();
    report.inserted = values.length;
    report.untouched = existing.length - seen.size;
  });
  if (report.schoolsAdded) report.notes.push(`新增院校 ${report.schoolsAdded} 所（名称取自投档表）`);
  if (parsed.rows.some((r) => r.minRank == null)) report.notes.push('部分专业组没有位次，按分数比较');
  invalidateCatalogue(db);
  return report;
}
