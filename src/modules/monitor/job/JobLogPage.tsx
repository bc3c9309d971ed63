import { Button } from 'antd';
import { useNavigate, useParams } from 'react-router';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';

/**
 * 调度日志 (/monitor/job-log/index/:jobId, component 'monitor/job/log', monitor:job:list): the generic list of
 * sys_job_log, for one job when :jobId names one (searched by it from the start), for all jobs with 0.
 */
export default function JobLogPage({ resource }: EnginePageProps) {
  const { jobId } = useParams();
  const navigate = useNavigate();
  const id = Number(jobId);
  return (
    <>
      <Button style={{ margin: '16px 16px 0' }} onClick={() => navigate('/monitor/job')}>
        返回定时任务
      </Button>
      <EntityList key={jobId} resource={resource} initialSearch={id > 0 ? { jobId: id } : {}} />
    </>
  );
}
