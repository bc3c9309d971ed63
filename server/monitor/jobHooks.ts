import { sql } from 'kysely';
import type { EntityHooks, HooksRegistry, WriteEvent } from '../engine/hooks.js';
import { fail } from '../http/envelope.js';
import { cronProblem, nextFireTime } from './cron.js';
import { checkJobParams } from './handlers.js';
import { JOB_STATUS } from './tables.js';

/** The value of a property after this write: the new one when sent, else the stored column. */
function after(event: WriteEvent, prop: string, column: string): unknown {
  return prop in event.values ? event.values[prop] : event.existing?.[column];
}

/**
 * 定时任务 rules beyond schemas/monitor/sys_job.json: the handler must be a registered one, its parameters must fit the handler's
 * schema, the cron expression must parse (RuoYi's messages: 新增任务'x'失败，Cron表达式不正确); every save gives the job its
 * next fire time from now (a paused job none), so a changed expression or a resumed job is picked up by the runners.
 */
export const jobHooks: EntityHooks = {
  beforeWrite(event) {
    const action = event.mode === 'create' || event.mode === 'import' ? '新增' : '修改';
    const name = String(after(event, 'jobName', 'job_name') ?? '');
    const handler = String(after(event, 'handlerName', 'handler_name') ?? '');
    const cron = String(after(event, 'cronExpression', 'cron_expression') ?? '');
    const problem = cronProblem(cron);
    if (problem) throw fail(`${action}任务'${name}'失败，${problem}`);
    const params = after(event, 'handlerParams', 'handler_params') as string | null | undefined;
    const checked = checkJobParams(handler, params);
    if (!checked.ok) throw fail(`${action}任务'${name}'失败，${checked.msg}`);
    // Stored as written; the handler's defaults are filled in at each run.
  },
  async afterWrite(event) {
    const row = await sql<{ status: string; cron_expression: string }>`select status, cron_expression from sys_job where job_id = ${event.id}`.execute(
      event.ctx.k,
    );
    const job = row.rows[0];
    if (!job) return;
    const next = job.status === JOB_STATUS.NORMAL ? nextFireTime(job.cron_expression, event.ctx.now) : null;
    await sql`update sys_job set next_fire_time = ${next} where job_id = ${event.id}`.execute(event.ctx.k);
  },
};

/** Hooks of the monitor module's schemas, by $id (merged into the engine's registry in server/app.ts). */
export const MONITOR_HOOKS: HooksRegistry = {
  sys_job: jobHooks,
};
