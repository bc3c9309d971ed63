import type { BaseRecord } from '@refinedev/core';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * Row and toolbar buttons of 定时任务 are plain callbacks (overrides.tsx); navigation to 调度日志 needs the router and 执行一次
 * the app's confirm dialog, which live in the list page (JobListPage). An action channel (src/utils/actionChannel.ts) carries the request from one to the other.
 */
export type JobAction = { kind: 'log'; jobId: number } | { kind: 'run'; record: BaseRecord; refresh: () => void };

const channel = createActionChannel<JobAction>();

export const requestJobAction = channel.request;
export const useJobAction = channel.use;
