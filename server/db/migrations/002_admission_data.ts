import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * Admission reference data (issue: volunteer planning): provinces with their filling mode and slot rules, schools,
 * admission lines per province/year/batch/track/school/group/major, score-segment tables (一分一段) and batch lines.
 */
export const migration002: Migration = {
  name: '002_admission_data',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    const s = db.schema;
    await s
      .createTable('gk_province')
      .addColumn('province', text, (c) => c.primaryKey())
      .addColumn('mode', text, notNull) // 'old' 文理分科 | '3+3' | '3+1+2'
      .addColumn('subject_type', 'integer', notNull) // 1 arts/science, 2 three-of-six, 3 one first choice plus two
      .addColumn('zy_type', 'integer', notNull) // 1 major-school, 2 school-group, 3 school-major
      .addColumn('slot_limit', 'integer', notNull) // volunteer units per plan (Shandong 96)
      .addColumn('group_major_limit', 'integer', (c) => c.notNull().defaultTo(0)) // majors per group (3+1+2), 0 = n/a
      .addColumn('cohort_size', 'integer') // candidates of the newest year, for equivalent ranks
      .execute();

    await withId(s.createTable('gk_school'), 'school_id', dialect)
      .addColumn('exam_province', text, notNull) // the province whose 投档表 uses this code
      .addColumn('school_code', text, notNull)
      .addColumn('name', text, notNull)
      .addColumn('province', text)
      .addColumn('city', text)
      .addColumn('level', text)
      .addColumn('tags', text, (c) => c.notNull().defaultTo('')) // '985|211|双一流'
      .addColumn('is_public', 'integer')
      .addUniqueConstraint('gk_school_code_uq', ['exam_province', 'school_code'])
      .execute();

    await withId(s.createTable('gk_admission_line'), 'line_id', dialect)
      .addColumn('exam_province', text, notNull)
      .addColumn('year', 'integer', notNull)
      .addColumn('batch', text, notNull)
      .addColumn('track', text, notNull) // 综合 / 物理 / 历史 / 文科 / 理科
      .addColumn('school_code', text, notNull)
      .addColumn('group_code', text) // 院校专业组 (3+1+2)
      .addColumn('major_name', text) // null for a school or group line
      .addColumn('min_score', 'integer', notNull)
      .addColumn('min_rank', 'integer')
      .addColumn('plan_count', 'integer')
      .addColumn('subject_req', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await s.createIndex('gk_line_lookup').on('gk_admission_line').columns(['exam_province', 'year', 'track', 'school_code']).execute();
    await s.createIndex('gk_line_score').on('gk_admission_line').columns(['exam_province', 'year', 'min_score']).execute();

    await s
      .createTable('gk_score_segment')
      .addColumn('exam_province', text, notNull)
      .addColumn('year', 'integer', notNull)
      .addColumn('track', text, notNull)
      .addColumn('score', 'integer', notNull)
      .addColumn('cumulative_rank', 'integer', notNull)
      .addPrimaryKeyConstraint('gk_score_segment_pk', ['exam_province', 'year', 'track', 'score'])
      .execute();

    await s
      .createTable('gk_batch_line')
      .addColumn('exam_province', text, notNull)
      .addColumn('year', 'integer', notNull)
      .addColumn('track', text, notNull)
      .addColumn('batch', text, notNull)
      .addColumn('min_score', 'integer', notNull)
      .addPrimaryKeyConstraint('gk_batch_line_pk', ['exam_province', 'year', 'track', 'batch'])
      .execute();
  },
};
