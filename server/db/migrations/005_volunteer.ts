import type { Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * Volunteer planning (issue "Volunteer planning", docs/volunteer-api.md): students with their score, rank, subjects
 * and preferences; one current plan per student with ordered items; the submission history (snapshots); the action
 * log; favourites; appointments; read-only share links.
 */
export const migration005: Migration = {
  name: '005_volunteer',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    const s = db.schema;
    const float = 'double precision' as const;

    await withId(s.createTable('vol_student'), 'student_id', dialect)
      .addColumn('name', text, notNull)
      .addColumn('mobile', text)
      .addColumn('province', text, notNull)
      .addColumn('exam_year', 'integer', notNull)
      .addColumn('score', 'integer')
      .addColumn('rank', 'integer')
      .addColumn('rank_flag', text) // exact | interpolated | above-table | below-table | manual
      .addColumn('subjects', text, (c) => c.notNull().defaultTo('')) // '1,2,3'
      .addColumn('prefer_regions', text, (c) => c.notNull().defaultTo('[]')) // JSON arrays
      .addColumn('prefer_levels', text, (c) => c.notNull().defaultTo('[]'))
      .addColumn('prefer_majors', text, (c) => c.notNull().defaultTo('[]'))
      .addColumn('tuition_cap', 'integer')
      .addColumn('owner_id', 'integer') // the expert (sys_user) who owns the student; null = not assigned
      .addColumn('remark', text)
      .addColumn('del_flag', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_by', 'integer')
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await s.createIndex('vol_student_owner').on('vol_student').column('owner_id').execute();

    await withId(s.createTable('vol_plan'), 'plan_id', dialect)
      .addColumn('student_id', 'integer', (c) => c.notNull().unique().references('vol_student.student_id'))
      .addColumn('status', text, notNull) // draft | submitted | approved | rejected
      .addColumn('version', 'integer', notNull)
      .addColumn('item_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('create_by', 'integer')
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_by', 'integer')
      .addColumn('update_time', epoch, notNull)
      .addColumn('submit_by', 'integer')
      .addColumn('submit_time', epoch)
      .addColumn('review_by', 'integer')
      .addColumn('review_time', epoch)
      .addColumn('review_comment', text)
      .execute();
    await s.createIndex('vol_plan_status').on('vol_plan').column('status').execute();

    await s
      .createTable('vol_plan_item')
      .addColumn('plan_id', 'integer', (c) => c.notNull().references('vol_plan.plan_id').onDelete('cascade'))
      .addColumn('sort', 'integer', notNull)
      .addColumn('line_id', 'integer', notNull)
      .addColumn('school_code', text, notNull)
      .addColumn('school_name', text)
      .addColumn('group_code', text)
      .addColumn('major_name', text)
      .addColumn('min_score', 'integer')
      .addColumn('min_rank', 'integer')
      .addColumn('tier', text) // at save time
      .addColumn('probability', float) // at save time
      .addColumn('obey', 'integer') // 服从调剂 (school-group provinces only)
      .addPrimaryKeyConstraint('vol_plan_item_pk', ['plan_id', 'sort'])
      .execute();

    await withId(s.createTable('vol_plan_submission'), 'submission_id', dialect)
      .addColumn('plan_id', 'integer', notNull)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('plan_version', 'integer', notNull)
      .addColumn('item_count', 'integer', notNull)
      .addColumn('items', text, notNull) // JSON snapshot of the submitted items
      .addColumn('status', text, notNull) // submitted | approved | rejected | withdrawn
      .addColumn('submit_by', 'integer', notNull)
      .addColumn('submit_time', epoch, notNull)
      .addColumn('review_by', 'integer')
      .addColumn('review_time', epoch)
      .addColumn('comment', text)
      .execute();
    await s.createIndex('vol_submission_student').on('vol_plan_submission').columns(['student_id', 'submit_time']).execute();

    await withId(s.createTable('vol_plan_action'), 'action_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('plan_id', 'integer')
      .addColumn('action', text, notNull)
      .addColumn('from_status', text)
      .addColumn('to_status', text)
      .addColumn('version', 'integer')
      .addColumn('user_id', 'integer', notNull)
      .addColumn('user_name', text, notNull)
      .addColumn('comment', text)
      .addColumn('create_time', epoch, notNull)
      .execute();
    await s.createIndex('vol_action_student').on('vol_plan_action').columns(['student_id', 'action_id']).execute();

    await withId(s.createTable('vol_like'), 'like_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('line_id', 'integer', notNull)
      .addColumn('user_id', 'integer', notNull)
      .addColumn('create_time', epoch, notNull)
      .addUniqueConstraint('vol_like_uq', ['student_id', 'line_id'])
      .execute();

    await withId(s.createTable('vol_appointment'), 'appointment_id', dialect)
      .addColumn('student_id', 'integer', notNull)
      .addColumn('expert_id', 'integer', notNull)
      .addColumn('appoint_time', epoch, notNull)
      .addColumn('duration', 'integer', notNull) // minutes
      .addColumn('status', text, notNull) // pending | done | cancelled | remade
      .addColumn('remark', text)
      .addColumn('remade_from', 'integer')
      .addColumn('del_flag', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('create_by', 'integer')
      .addColumn('create_time', epoch, notNull)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await s.createIndex('vol_appointment_expert').on('vol_appointment').columns(['expert_id', 'appoint_time']).execute();

    await withId(s.createTable('vol_share'), 'share_id', dialect)
      .addColumn('token_hash', text, (c) => c.notNull().unique())
      .addColumn('student_id', 'integer', notNull)
      .addColumn('create_by', 'integer', notNull)
      .addColumn('create_time', epoch, notNull)
      .addColumn('expire_time', epoch, notNull)
      .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
