import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';
import { epoch, type Migration, notNull, text, withId } from './helpers.js';

/**
 * 定时任务 and monitoring (server/monitor/, docs/monitor.md):
 *  - sys_job: RuoYi's job shape, but a job names a registered handler (handler_name + JSON handler_params) instead of
 *    an invoke-target string; next_fire_time is the runner's claim point (a conditional UPDATE moves it, so with several
 *    processes exactly one wins each firing).
 *  - sys_job_log: one row per run; status 2 = running with a lease (lease_until) the running process renews, so the row of a
 *    process that died is marked failed once the lease has expired.
 *  - sys_daily_figure: per-day counts written by the 每日统计 job (the home page may read them).
 *  - sys_monitor_node: each server process's latest figures (服务监控 lists every live process).
 */
export const migration010: Migration = {
  name: '010_jobs',
  async up(db: Kysely<unknown>, dialect: Dialect) {
    await withId(db.schema.createTable('sys_job'), 'job_id', dialect)
      .addColumn('job_name', text, notNull)
      .addColumn('job_group', text, (c) => c.notNull().defaultTo('DEFAULT'))
      .addColumn('handler_name', text, notNull)
      .addColumn('handler_params', text)
      .addColumn('cron_expression', text, notNull)
      .addColumn('misfire_policy', text, (c) => c.notNull().defaultTo('3'))
      .addColumn('concurrent', text, (c) => c.notNull().defaultTo('1'))
      .addColumn('status', text, (c) => c.notNull().defaultTo('0'))
      .addColumn('next_fire_time', epoch)
      .addColumn('remark', text)
      .addColumn('create_by', text)
      .addColumn('create_time', epoch)
      .addColumn('update_by', text)
      .addColumn('update_time', epoch)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex('ix_sys_job_next_fire').on('sys_job').columns(['status', 'next_fire_time']).execute();

    await withId(db.schema.createTable('sys_job_log'), 'job_log_id', dialect)
      .addColumn('job_id', epoch, notNull)
      .addColumn('job_name', text, notNull)
      .addColumn('job_group', text, notNull)
      .addColumn('handler_name', text, notNull)
      .addColumn('handler_params', text)
      .addColumn('trigger_type', text, (c) => c.notNull().defaultTo('cron'))
      .addColumn('job_message', text)
      .addColumn('status', text, notNull)
      .addColumn('exception_info', text)
      .addColumn('owner', text)
      .addColumn('lease_until', epoch)
      .addColumn('fire_time', epoch)
      .addColumn('start_time', epoch, notNull)
      .addColumn('end_time', epoch)
      .addColumn('duration_ms', epoch)
      .execute();
    await db.schema.createIndex('ix_sys_job_log_job').on('sys_job_log').columns(['job_id', 'start_time']).execute();
    await db.schema.createIndex('ix_sys_job_log_status').on('sys_job_log').columns(['status', 'lease_until']).execute();

    await db.schema
      .createTable('sys_daily_figure')
      .addColumn('day', text, (c) => c.primaryKey())
      .addColumn('figures', text, notNull) // JSON {users, students, plans, logins, …}
      .addColumn('update_time', epoch, notNull)
      .execute();

    await db.schema
      .createTable('sys_monitor_node')
      .addColumn('node_id', text, (c) => c.primaryKey())
      .addColumn('info', text, notNull) // JSON snapshot of server figures
      .addColumn('update_time', epoch, notNull)
      .execute();

    // Built-in jobs (handlers in server/monitor/builtinJobs.ts). next_fire_time is filled by the runner on its first tick.
    const now = Date.now();
    const jobs: Array<[string, string, string, string, string]> = [
      ['清理过期会话', 'SYSTEM', 'purgeExpiredSessions', '0 0 3 * * ?', '删除已过期或已注销超过保留天数的登录会话'],
      ['清理重放记录', 'SYSTEM', 'purgeRequestNonces', '0 */10 * * * ?', '删除已过期的请求签名记录（防重放）'],
      ['审核超时提醒', 'SYSTEM', 'reviewTimeoutReminder', '0 */30 * * * ?', '按审核配置提醒审核人处理超时未审的志愿方案'],
      ['每日统计', 'SYSTEM', 'dailyFigures', '0 5 0 * * ?', '统计前一天与当天的用户、学生、方案、登录数'],
    ];
    for (const [name, group, handler, cron, remark] of jobs) {
      await sql`insert into sys_job (job_name, job_group, handler_name, handler_params, cron_expression, misfire_policy, concurrent, status, remark, create_by, create_time, version)
        values (${name}, ${group}, ${handler}, ${'{}'}, ${cron}, '3', '1', '0', ${remark}, 'admin', ${now}, 1)`.execute(db);
    }
  },
};
