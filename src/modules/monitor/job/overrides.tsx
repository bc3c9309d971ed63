import { CaretRightOutlined, FileSearchOutlined } from '@ant-design/icons';
import { Tag } from 'antd';
import { createElement } from 'react';
import type { ResourceOverride } from '@/engine/resource';
import { requestJobAction } from './jobActions';

/** 执行状态 of a run (sys_job_log.status): 0 成功 · 1 失败 · 2 执行中. */
const RUN_STATUS: Record<string, { label: string; color: string }> = {
  '0': { label: '成功', color: 'success' },
  '1': { label: '失败', color: 'error' },
  '2': { label: '执行中', color: 'processing' },
};

/**
 * 定时任务 overrides of the generic sys_job screens (src/resources/): the form with the handler registry and the
 * next fire times, and per row 执行一次 and 调度日志; the toolbar's 日志 opens every job's log.
 */
export const jobOverride: ResourceOverride = {
  pages: {
    list: () => import('./JobListPage'),
    create: () => import('./JobFormDialog'),
    edit: () => import('./JobFormDialog'),
  },
  rowActions: [
    {
      key: 'run',
      label: '执行一次',
      permission: 'monitor:job:edit',
      icon: createElement(CaretRightOutlined),
      onClick: (record, ctx) => requestJobAction({ kind: 'run', record, refresh: ctx.refresh }),
    },
    {
      key: 'log',
      label: '调度日志',
      permission: 'monitor:job:list',
      icon: createElement(FileSearchOutlined),
      onClick: (record) => requestJobAction({ kind: 'log', jobId: Number(record.jobId) }),
    },
  ],
  toolbar: [
    {
      key: 'log',
      label: '日志',
      permission: 'monitor:job:list',
      icon: createElement(FileSearchOutlined),
      onClick: () => requestJobAction({ kind: 'log', jobId: 0 }),
    },
  ],
};

/** 调度日志: the hidden route of one job's runs, the status as a coloured tag. */
export const jobLogOverride: ResourceOverride = {
  components: ['monitor/job/log'],
  pages: { list: () => import('./JobLogPage') },
  cells: {
    status: (value) => {
      const s = RUN_STATUS[String(value)];
      return s ? createElement(Tag, { color: s.color }, s.label) : String(value ?? '');
    },
  },
  fields: {
    status: {
      choices: Object.entries(RUN_STATUS).map(([value, s]) => ({ label: s.label, value })),
    },
  },
};

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { sys_job: jobOverride, sys_job_log: jobLogOverride };
