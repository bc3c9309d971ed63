import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { type GroupImportReport, importGroups } from './import.js';
import { UNDERGRAD_BATCH_LINE } from './query.js';

/**
 * Hubei and Guangdong 2025 by 院校专业组 (server/db/seed/data/gaokao-hubei-2025 and gaokao-guangdong-2025, copies of
 * ../shared/data with their READMEs), loaded through importGroups — the administrator's import path — once per
 * database (skipped when the province already has group lines), like the Shandong history (import/history.ts).
 */

type Db = Kysely<Database>;
const DATA = new URL('../../db/seed/data/', import.meta.url);

export interface GroupProvinceSeed {
  province: string;
  dir: string;
  year: number;
  /** Official 2025 本科 batch lines (editable in gk_batch_line); each equals the lowest 投档线 most groups of the track sit on. */
  batchLines: Record<'物理类' | '历史类', number>;
  /** Whether the data set has a 一分一段 table (Guangdong 2025 has none: the rank is entered). */
  rankTable: boolean;
}

export const GROUP_PROVINCES: GroupProvinceSeed[] = [
  { province: '湖北', dir: 'gaokao-hubei-2025', year: 2025, batchLines: { 物理类: 426, 历史类: 442 }, rankTable: true },
  { province: '广东', dir: 'gaokao-guangdong-2025', year: 2025, batchLines: { 物理类: 436, 历史类: 464 }, rankTable: false },
];

/** 3+1+2: first choice 物理/历史 plus two (subject_type 3), 院校专业组 (zy_type 2), 45 groups of up to 6 majors. */
export const GROUP_PROVINCE_RULES = { mode: '3+1+2', subjectType: 3, zyType: 2, slotLimit: 45, groupMajorLimit: 6 } as const;

/** GROUP_PROVINCES=1 / 0 forces the start-up seed on / off; by default on, except under vitest (tests seed it themselves). */
export function groupProvincesWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.GROUP_PROVINCES === '1') return true;
  if (env.GROUP_PROVINCES === '0') return false;
  return !env.VITEST;
}

export async function seedGroupProvinces(db: Db, provinces = GROUP_PROVINCES): Promise<GroupImportReport[]> {
  const reports: GroupImportReport[] = [];
  for (const p of provinces) {
    const has = await db
      .selectFrom('gkAdmissionLine')
      .select('lineId')
      .where('examProvince', '=', p.province)
      .where('groupCode', 'is not', null)
      .limit(1)
      .executeTakeFirst();
    if (has) continue;
    const exists = await db.selectFrom('gkProvince').select('province').where('province', '=', p.province).executeTakeFirst();
    if (!exists)
      await db
        .insertInto('gkProvince')
        .values({ province: p.province, ...GROUP_PROVINCE_RULES, cohortSize: null })
        .execute();
    for (const [track, minScore] of Object.entries(p.batchLines)) {
      const bl = await db
        .selectFrom('gkBatchLine')
        .select('minScore')
        .where('examProvince', '=', p.province)
        .where('year', '=', p.year)
        .where('track', '=', track)
        .where('batch', '=', UNDERGRAD_BATCH_LINE)
        .executeTakeFirst();
      if (!bl) await db.insertInto('gkBatchLine').values({ examProvince: p.province, year: p.year, track, batch: UNDERGRAD_BATCH_LINE, minScore }).execute();
    }
    const read = (name: string) => fs.readFileSync(new URL(`${p.dir}/${name}`, DATA), 'utf8');
    if (p.rankTable) reports.push(await importGroups(db, { province: p.province, kind: 'groupRankTable', year: p.year, csv: read('rank-table.csv') }));
    reports.push(await importGroups(db, { province: p.province, kind: 'groupLines', year: p.year, csv: read('group-lines.csv') }));
  }
  return reports;
}
