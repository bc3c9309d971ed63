import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Migration } from './helpers.js';

/** The customer module's daily jobs (handlers in server/customer/jobs.ts): card expiry and the 回收站 purge. */
export const migration015: Migration = {
  name: '015_customer_jobs',
  async up(db: Kysely<unknown>, _dialect: Dialect) {
    const now = Date.now();
    const jobs: Array<[string, string, string, string]> = [
      ['会员卡到期', 'expireCards', '0 10 0 * * ?', '每天把已过有效期的已激活会员卡置为已过期'],
      ['回收站清理', 'purgeRecycledCustomers', '0 30 3 * * ?', '每天彻底删除在回收站中超过 30 天的客户'],
    ];
    for (const [name, handler, cron, remark] of jobs) {
      await sql`insert into sys_job (job_name, job_group, handler_name, handler_params, cron_expression, misfire_policy, concurrent, status, remark, create_by, create_time, version)
        values (${name}, 'DEFAULT', ${handler}, ${'{}'}, ${cron}, '3', '1', '0', ${remark}, 'admin', ${now}, 1)`.execute(db);
    }
  },
};
