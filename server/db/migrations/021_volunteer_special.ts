import type { Kysely } from 'kysely';
import { type Migration, text } from './helpers.js';

/**
 * A student's 专项资格 (issue 14, docs/volunteer-model.md "Special plans"): the special-plan kinds the family has
 * declared eligibility for (国家专项, 地方专项, 高校专项, 定向, 公费师范, 预科, 民族班), a JSON string array. Lines of
 * those kinds are offered and accepted in a plan only when declared; '[]' (the default) means none.
 */
export const migration021: Migration = {
  name: '021_volunteer_special',
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('vol_student')
      .addColumn('special_eligibility', text, (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
