import type { Kysely } from 'kysely';
import { type Migration, text } from './helpers.js';

/**
 * Several years of admission data (issue 14, server/volunteer/import/README.md):
 *  - gk_admission_line.major_code: the 专业代号 of the 投档表. One school can print the same major name under two
 *    codes (a 地方专项 or 中外合作 line), so a year's line is keyed by school code + major code when the code is known.
 *  - gk_school.ownership (公办 / 民办 / 中外合作办学) and authority (主管部门) from the corrected school list.
 */
export const migration013: Migration = {
  name: '013_admission_years',
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('gk_admission_line').addColumn('major_code', text).execute();
    await db.schema.alterTable('gk_school').addColumn('ownership', text).execute();
    await db.schema.alterTable('gk_school').addColumn('authority', text).execute();
    await db.schema.createIndex('gk_line_code').on('gk_admission_line').columns(['exam_province', 'year', 'school_code', 'major_code']).execute();
  },
};
