import crypto from 'node:crypto';
import os from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { ServerConfig } from '../config.js';
import type { Db } from '../db/connection.js';
import { nextFireTime } from './cron.js';
import { checkJobParams, getJobHandler } from './handlers.js';
import { JOB_STATUS, type JobTable, RUN_STATUS } from './tables.js';

export interface RunnerOptions {
  /** How often the process looks for due jobs (ms). */
  tickMs: number;
  /** A running log row's lease (ms); the running process renews it every third of it. */
  leaseMs: number;
  /** On shutdown, how long to wait for runs in progress before leaving them (their lease then expires). */
  graceMs: number;
}

export interface RunOutcome {
  status: string;
  message: string;
}

type JobRow = Omit<JobTable, 'jobId'> & { jobId: number };

const MAX_TEXT = 2000;
const cut = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

/**
 * The job runner of one server process.
 *
 * Exactly once with several processes: every process ticks; a due job is claimed by moving its `next_fire_time` with a
 * conditional UPDATE (`… where job_id = ? and next_fire_time = <the value read>`). The database lets exactly one
 * process change the row from that value, so only that process runs the firing — on PostgreSQL and SQLite alike,
 * without holding a lock while the handler runs.
 *
 * Death mid-run: the run's log row is written as 执行中 (status 2) with a lease the process renews; any process that
 * finds a running row whose lease has expired (at its start and on each tick) marks it 失败.
 */
export class JobRunner {
  readonly owner = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<RunOutcome>>();
  /** Called after every finished run (metrics). */
  onRun: (handler: string, status: string, ms: number) => void = () => {};

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    readonly options: RunnerOptions,
    /** Handed to every handler (JobContext.config). */
    private readonly config?: ServerConfig,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.reapExpired(Date.now());
    this.schedule();
  }

  /** Stops ticking; waits up to graceMs for runs in progress, then leaves them (their lease will expire). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.abort.abort();
    if (this.running.size === 0) return;
    let wait: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => (wait = setTimeout(r, this.options.graceMs)))]);
    clearTimeout(wait);
  }

  private schedule() {
    if (this.stopped) return;
    this.timer = setTimeout(async () => {
      try {
        await this.tick(Date.now());
      } catch (err) {
        if (!this.stopped) this.log.error({ err }, '定时任务调度出错');
      }
      this.schedule();
    }, this.options.tickMs);
    this.timer.unref();
  }

  /** One pass: mark dead runs failed, give new or resumed jobs their next fire time, fire the due ones. */
  async tick(now: number): Promise<void> {
    const k = this.db.kysely;
    await this.reapExpired(now);
    const unscheduled = await k
      .selectFrom('sysJob')
      .select(['jobId', 'cronExpression'])
      .where('status', '=', JOB_STATUS.NORMAL)
      .where('nextFireTime', 'is', null)
      .execute();
    for (const job of unscheduled) {
      await k
        .updateTable('sysJob')
        .set({ nextFireTime: nextFireTime(job.cronExpression, now) })
        .where('jobId', '=', job.jobId)
        .where('nextFireTime', 'is', null)
        .execute();
    }
    const due = (await k
      .selectFrom('sysJob')
      .selectAll()
      .where('status', '=', JOB_STATUS.NORMAL)
      .where('nextFireTime', '<=', now)
      .orderBy('nextFireTime')
      .execute()) as JobRow[];
    for (const job of due) {
      if (this.stopped) return;
      const scheduled = job.nextFireTime as number;
      const next = nextFireTime(job.cronExpression, now);
      const claim = await k
        .updateTable('sysJob')
        .set({ nextFireTime: next })
        .where('jobId', '=', job.jobId)
        .where('status', '=', JOB_STATUS.NORMAL)
        .where('nextFireTime', '=', scheduled)
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue; // another process took this firing
      // A firing more than a few ticks late was missed (no process was up); 放弃执行 drops it, the others run it once.
      const missed = now - scheduled > Math.max(5000, this.options.tickMs * 5);
      if (missed && job.misfirePolicy === '3') continue;
      void this.fire(job, 'cron', scheduled);
    }
  }

  /** Runs a job now (a cron firing or 执行一次) and answers the outcome once it has finished. */
  fire(job: JobRow, trigger: 'cron' | 'manual', fireTime: number | null = null): Promise<RunOutcome> {
    const run = this.execute(job, trigger, fireTime);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
    return run;
  }

  private async execute(job: JobRow, trigger: 'cron' | 'manual', fireTime: number | null): Promise<RunOutcome> {
    const k = this.db.kysely;
    const start = Date.now();
    if (job.concurrent === '1') {
      const busy = await k
        .selectFrom('sysJobLog')
        .select('jobLogId')
        .where('jobId', '=', job.jobId)
        .where('status', '=', RUN_STATUS.RUNNING)
        .where('leaseUntil', '>=', start)
        .executeTakeFirst();
      if (busy) {
        await this.writeLog(job, trigger, fireTime, start, RUN_STATUS.FAILED, '上一次执行尚未结束（该任务禁止并发执行），本次跳过', null);
        return { status: RUN_STATUS.FAILED, message: '上一次执行尚未结束，本次跳过' };
      }
    }
    const inserted = await k
      .insertInto('sysJobLog')
      .values({
        jobId: job.jobId,
        jobName: job.jobName,
        jobGroup: job.jobGroup,
        handlerName: job.handlerName,
        handlerParams: job.handlerParams,
        triggerType: trigger,
        status: RUN_STATUS.RUNNING,
        owner: this.owner,
        leaseUntil: start + this.options.leaseMs,
        fireTime,
        startTime: start,
        jobMessage: '执行中',
      })
      .returning('jobLogId')
      .executeTakeFirstOrThrow();
    const logId = inserted.jobLogId;
    const heartbeat = setInterval(
      () => {
        k.updateTable('sysJobLog')
          .set({ leaseUntil: Date.now() + this.options.leaseMs })
          .where('jobLogId', '=', logId)
          .where('status', '=', RUN_STATUS.RUNNING)
          .execute()
          .catch(() => {});
      },
      Math.max(50, Math.floor(this.options.leaseMs / 3)),
    );
    heartbeat.unref();
    this.abort.signal.addEventListener('abort', () => clearInterval(heartbeat), { once: true });

    let status: string = RUN_STATUS.SUCCESS;
    let message = '';
    let error: string | null = null;
    try {
      const handler = getJobHandler(job.handlerName);
      if (!handler) throw new Error(`处理器'${job.handlerName}'不存在（模块未加载或已下线）`);
      const checked = checkJobParams(job.handlerName, job.handlerParams);
      if (!checked.ok) throw new Error(checked.msg);
      message = (await handler.run({ db: this.db, log: this.log, now: start, signal: this.abort.signal, config: this.config }, checked.params)) ?? '执行成功';
    } catch (err) {
      status = RUN_STATUS.FAILED;
      message = '执行失败';
      error = err instanceof Error ? `${err.message}${err.stack ? `\n${err.stack}` : ''}` : String(err);
    } finally {
      clearInterval(heartbeat);
    }
    const end = Date.now();
    try {
      await k
        .updateTable('sysJobLog')
        .set({ status, jobMessage: cut(message), exceptionInfo: error ? cut(error) : null, endTime: end, durationMs: end - start, leaseUntil: null })
        .where('jobLogId', '=', logId)
        .where('status', '=', RUN_STATUS.RUNNING)
        .execute();
    } catch (err) {
      this.log.warn({ err }, '任务日志写入失败');
    }
    this.onRun(job.handlerName, status, end - start);
    return { status, message };
  }

  private async writeLog(job: JobRow, trigger: string, fireTime: number | null, start: number, status: string, message: string, error: string | null) {
    await this.db.kysely
      .insertInto('sysJobLog')
      .values({
        jobId: job.jobId,
        jobName: job.jobName,
        jobGroup: job.jobGroup,
        handlerName: job.handlerName,
        handlerParams: job.handlerParams,
        triggerType: trigger,
        status,
        jobMessage: message,
        exceptionInfo: error,
        owner: this.owner,
        fireTime,
        startTime: start,
        endTime: start,
        durationMs: 0,
      })
      .execute();
  }

  /** Running rows whose lease has expired belong to a process that died: mark them failed. */
  async reapExpired(now: number): Promise<number> {
    const res = await this.db.kysely
      .updateTable('sysJobLog')
      .set({
        status: RUN_STATUS.FAILED,
        jobMessage: '执行失败',
        exceptionInfo: '执行进程已中断（租约到期未续约），本次执行视为失败',
        endTime: now,
        durationMs: sql<number>`${now} - start_time`,
        leaseUntil: null,
      })
      .where('status', '=', RUN_STATUS.RUNNING)
      .where('leaseUntil', '<', now)
      .executeTakeFirst();
    return Number(res.numUpdatedRows);
  }
}
