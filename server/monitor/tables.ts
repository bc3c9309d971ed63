import type { Generated } from 'kysely';

/** Row types of migration 010 (sys_job, sys_job_log, sys_daily_figure, sys_monitor_node), merged into Database. */
export interface JobTable {
  jobId: Generated<number>;
  jobName: string;
  jobGroup: string;
  handlerName: string;
  handlerParams: string | null;
  cronExpression: string;
  /** 1 立即执行 · 2 执行一次 · 3 放弃执行 (what to do with a firing missed while no process was up). */
  misfirePolicy: string;
  /** 0 允许 · 1 禁止 (RuoYi's 是否并发执行). */
  concurrent: string;
  /** 0 正常 · 1 暂停 */
  status: string;
  nextFireTime: number | null;
  remark: string | null;
  createBy: string | null;
  createTime: number | null;
  updateBy: string | null;
  updateTime: number | null;
  version: number;
}

export interface JobLogTable {
  jobLogId: Generated<number>;
  jobId: number;
  jobName: string;
  jobGroup: string;
  handlerName: string;
  handlerParams: string | null;
  /** cron · manual (执行一次) */
  triggerType: string;
  jobMessage: string | null;
  /** 0 成功 · 1 失败 · 2 执行中 */
  status: string;
  exceptionInfo: string | null;
  /** The process that runs it (host:pid:random). */
  owner: string | null;
  /** A running row whose lease has passed belongs to a dead process: it is marked failed. */
  leaseUntil: number | null;
  /** The scheduled fire time this run belongs to (cron runs). */
  fireTime: number | null;
  startTime: number;
  endTime: number | null;
  durationMs: number | null;
}

export interface DailyFigureTable {
  day: string;
  figures: string;
  updateTime: number;
}

export interface MonitorNodeTable {
  nodeId: string;
  info: string;
  updateTime: number;
}

declare module '../db/types.js' {
  interface Database {
    sysJob: JobTable;
    sysJobLog: JobLogTable;
    sysDailyFigure: DailyFigureTable;
    sysMonitorNode: MonitorNodeTable;
  }
}

export const JOB_STATUS = { NORMAL: '0', PAUSED: '1' } as const;
export const RUN_STATUS = { SUCCESS: '0', FAILED: '1', RUNNING: '2' } as const;
