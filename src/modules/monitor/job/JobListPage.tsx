import { App } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { runJob } from '@/api/monitor';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { requestJobAction, useJobAction } from './jobActions';

/**
 * 定时任务 (RuoYi monitor/job/index): the generic list of sys_job, plus 执行一次 (confirmed) and 调度日志 — the hidden page
 * /monitor/job-log/index/{jobId} (0 = every job's log).
 */
export default function JobListPage({ resource }: EnginePageProps) {
  const navigate = useNavigate();
  const { modal, message } = App.useApp();
  const action = useJobAction();

  useEffect(() => {
    if (!action) return;
    requestJobAction(null);
    if (action.kind === 'log') {
      navigate(`/monitor/job-log/index/${action.jobId}`);
      return;
    }
    modal.confirm({
      title: '系统提示',
      content: `确认要立即执行一次"${String(action.record.jobName)}"任务吗？`,
      okText: '确定',
      cancelText: '取消',
      onOk: async () => {
        message.success(await runJob(Number(action.record.jobId)));
        action.refresh();
      },
    });
  }, [action, navigate, modal, message]);

  return <EntityList resource={resource} />;
}
