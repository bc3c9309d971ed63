import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { SHANDONG } from '../../db/seed/admission.js';
import type { Database } from '../../db/types.js';
import { type ImportReport, importAdmission } from './apply.js';

/**
 * Shandong 2021–2025 (server/db/seed/data/gaokao-shandong, a copy of ../shared/data/gaokao-shandong with its
 * README), loaded through the same importAdmission an administrator uses: the corrected school list, the five
 * 一分一段 tables, the five 投档表 (2025's seeded lines are updated in place, keeping their ids) and the subject
 * requirements. Once per database: skipped when 2021's lines carry their 专业代号 already.
 */
export const HISTORY_DIR = new URL('../../db/seed/data/gaokao-shandong/', import.meta.url);
export const HISTORY_YEARS = [2021, 2022, 2023, 2024, 2025];

/**
 * Whether the server loads the history at start. ADMISSION_HISTORY=1 / 0 decides; by default yes, except under
 * vitest (VITEST set): each server test builds a fresh database and the one-year seed keeps them fast; a test that
 * needs the five years calls seedShandongHistory on its database.
 */
export function historyWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.ADMISSION_HISTORY === '1') return true;
  if (env.ADMISSION_HISTORY === '0') return false;
  return !env.VITEST;
}

export async function historyLoaded(db: Kysely<Database>): Promise<boolean> {
  const r = await db
    .selectFrom('gkAdmissionLine')
    .select('lineId')
    .where('examProvince', '=', SHANDONG)
    .where('year', '=', HISTORY_YEARS[0])
    .where('majorCode', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return r != null;
}

export async function seedShandongHistory(db: Kysely<Database>, years = HISTORY_YEARS): Promise<ImportReport[] | null> {
  if (await historyLoaded(db)) return null;
  const province = await db.selectFrom('gkProvince').select('province').where('province', '=', SHANDONG).executeTakeFirst();
  if (!province) return null; // SEED=0: no Shandong at all
  const read = (name: string) => fs.readFileSync(new URL(name, HISTORY_DIR), 'utf8');
  const reports: ImportReport[] = [];
  reports.push(await importAdmission(db, { province: SHANDONG, kind: 'schools', csv: read('schools.csv') }));
  for (const year of years) reports.push(await importAdmission(db, { province: SHANDONG, kind: 'rankTable', year, csv: read(`rank-table-${year}.csv`) }));
  for (const year of years) reports.push(await importAdmission(db, { province: SHANDONG, kind: 'lines', year, csv: read(`toudang-${year}.csv`) }));
  reports.push(await importAdmission(db, { province: SHANDONG, kind: 'subjects', csv: read('subject-requirements-2026.csv') }));
  return reports;
}
