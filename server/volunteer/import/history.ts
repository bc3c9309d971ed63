import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { SHANDONG, SHANDONG_TRACK } from '../../db/seed/admission.js';
import type { Database } from '../../db/types.js';
import { type ImportReport, importAdmission } from './apply.js';

/**
 * Shandong's admission years (server/db/seed/data/gaokao-shandong, a copy of ../shared/data/gaokao-shandong with its
 * README), loaded through the same importAdmission an administrator uses. The years are data: whatever
 * rank-table-YYYY.csv and toudang-YYYY.csv the folder holds. Each start imports what the database lacks — a fresh
 * database every year, one that loaded 2021–2025 earlier only 2026 — and a rank table without its lines (the next
 * year's 一分一段表 arrives in June, weeks before the 投档表) on its own. When nothing is missing, one query.
 *
 * subject-requirements-2026.csv is not applied: the 2026 投档表 carries each line's own 选考科目要求 (that file is
 * the same rows without minRank), and putting 2026's requirements on the 2025 lines by name, as before, would tell
 * a server started with ADMISSION_AS_OF=2025 which 2025 lines still ran in 2026 (the others would be the ones left
 * without a requirement). The `subjects` import stays for an administrator's file; it fills only unknown ones.
 */
export const HISTORY_DIR = new URL('../../db/seed/data/gaokao-shandong/', import.meta.url);

/** The files of the folder, years ascending. */
export interface HistoryFiles {
  /** schools.csv (the corrected school list). */
  schools: boolean;
  /** rank-table-YYYY.csv (一分一段表). */
  rankTables: number[];
  /** toudang-YYYY.csv (投档表). */
  lines: number[];
}

/**
 * Whether the server loads the history at start. ADMISSION_HISTORY=1 / 0 decides; by default yes, except under
 * vitest (VITEST set): each server test builds a fresh database and the one-year seed keeps them fast; a test that
 * needs the years calls seedShandongHistory on its database.
 */
export function historyWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.ADMISSION_HISTORY === '1') return true;
  if (env.ADMISSION_HISTORY === '0') return false;
  return !env.VITEST;
}

const fileIn = (dir: URL | string, name: string) => (typeof dir === 'string' ? path.join(dir, name) : new URL(name, dir));

/** The years a data folder holds (file names rank-table-YYYY.csv and toudang-YYYY.csv), and whether it has schools.csv. */
export function historyFiles(dir: URL | string = HISTORY_DIR): HistoryFiles {
  const names = fs.readdirSync(dir);
  const years = (re: RegExp) =>
    names
      .map((n) => re.exec(n)?.[1])
      .filter((y): y is string => y != null)
      .map(Number)
      .sort((a, b) => a - b);
  return { schools: names.includes('schools.csv'), rankTables: years(/^rank-table-(\d{4})\.csv$/), lines: years(/^toudang-(\d{4})\.csv$/) };
}

/**
 * Of the given files, those the database does not hold yet, in one query: the school list when no school has its
 * 办学性质 (the demo seed's list has none), a rank table when its year has no 一分一段 rows, lines when no line of the
 * year carries a 专业代号 (the one-year demo seed's 2025 lines have none: the 投档表 updates them in place). Null when
 * the database has no Shandong (SEED=0).
 */
export async function missingHistory(db: Kysely<Database>, files: HistoryFiles): Promise<HistoryFiles | null> {
  // Scalar subqueries ordered like an index (gk_line_code, the segment primary key): each reads the index's first
  // entry (PostgreSQL once it has statistics; an EXISTS made it scan the table from its start instead).
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('gkProvince').select('province').where('province', '=', SHANDONG).as('province'),
      eb
        .selectFrom('gkSchool')
        .select((e) => e.fn.min('schoolCode').as('m'))
        .where('examProvince', '=', SHANDONG)
        .where('ownership', 'is not', null)
        .as('schools'),
      ...files.rankTables.map((y) =>
        eb
          .selectFrom('gkScoreSegment')
          .select((e) => e.fn.max('score').as('m'))
          .where('examProvince', '=', SHANDONG)
          .where('year', '=', y)
          .where('track', '=', SHANDONG_TRACK)
          .as(`rank${y}`),
      ),
      ...files.lines.map((y) =>
        eb
          .selectFrom('gkAdmissionLine')
          .select('schoolCode')
          .where('examProvince', '=', SHANDONG)
          .where('year', '=', y)
          .where('majorCode', 'is not', null)
          .orderBy('schoolCode')
          .orderBy('majorCode')
          .limit(1)
          .as(`lines${y}`),
      ),
    ])
    .executeTakeFirstOrThrow();
  const has = (key: string) => (row as Record<string, unknown>)[key] != null;
  if (!has('province')) return null;
  return {
    schools: files.schools && !has('schools'),
    rankTables: files.rankTables.filter((y) => !has(`rank${y}`)),
    lines: files.lines.filter((y) => !has(`lines${y}`)),
  };
}

/**
 * Imports what the database lacks of the folder: the school list (once), every missing rank table, then every missing
 * 投档表, oldest first (a school renamed in the newest 投档表 takes that name; a school the list lacks comes in with
 * it). Each rank table re-ranks the students it now ranks (rerank.ts). `years` limits it to those years. Null when
 * nothing was missing (or there is no Shandong).
 */
export async function seedShandongHistory(
  db: Kysely<Database>,
  years?: readonly number[] | null,
  dir: URL | string = HISTORY_DIR,
): Promise<ImportReport[] | null> {
  const found = historyFiles(dir);
  const wanted =
    years == null ? found : { ...found, rankTables: found.rankTables.filter((y) => years.includes(y)), lines: found.lines.filter((y) => years.includes(y)) };
  const missing = await missingHistory(db, wanted);
  if (!missing || (!missing.schools && missing.rankTables.length === 0 && missing.lines.length === 0)) return null;
  const read = (name: string) => fs.readFileSync(fileIn(dir, name), 'utf8');
  const reports: ImportReport[] = [];
  if (missing.schools) reports.push(await importAdmission(db, { province: SHANDONG, kind: 'schools', csv: read('schools.csv') }));
  for (const year of missing.rankTables)
    reports.push(await importAdmission(db, { province: SHANDONG, kind: 'rankTable', year, csv: read(`rank-table-${year}.csv`) }));
  for (const year of missing.lines) reports.push(await importAdmission(db, { province: SHANDONG, kind: 'lines', year, csv: read(`toudang-${year}.csv`) }));
  return reports;
}
