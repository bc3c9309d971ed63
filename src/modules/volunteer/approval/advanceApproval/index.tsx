import { Card, Result, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { type Expert, listExperts } from '@/api/volunteer';
import { EntityList } from '@/engine/pages/EntityList';
import { useResourceDef } from '@/engine/registry';
import type { EnginePageProps } from '@/engine/resource';
import ExaminePage from '../examine';
import { DistributeDialog } from './DistributeDialog';
import { distributing, studentsOf } from './openers';

/**
 * 领导审批 (leader/AdvanceApproval/index, schemas/volunteer/vol_approval.json): three engine lists in tabs — the plans
 * waiting for approval (志愿审核's list, 通过 / 驳回 behind volunteer:examine:approve), the students (this resource;
 * select some and 批量分配 them to an expert) and the experts (vol_expert; 查看学生 filters the students by one).
 */
export default function AdvanceApprovalPage({ resource }: EnginePageProps) {
  const examine = useResourceDef('vol_examine');
  const expertList = useResourceDef('vol_expert');
  const [tab, setTab] = useState('approvals');
  const [experts, setExperts] = useState<Expert[]>([]);
  const dialog = distributing.use();
  const ownerId = studentsOf.use();

  const loadExperts = useCallback(async () => {
    try {
      setExperts(await listExperts());
    } catch {
      // shown by the http layer
    }
  }, []);
  useEffect(() => {
    loadExperts();
  }, [loadExperts]);
  useEffect(() => {
    if (ownerId != null) setTab('students');
  }, [ownerId]);

  if (!examine || !expertList) return <Result status="404" title="页面不存在" />;
  return (
    <div style={{ padding: 16 }}>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'approvals', label: '待审批方案', children: <ExaminePage resource={examine} /> },
            {
              key: 'students',
              label: '学生列表',
              children: <EntityList key={ownerId ?? 'all'} resource={resource} initialSearch={ownerId != null ? { ownerId } : undefined} />,
            },
            { key: 'experts', label: `专家列表（${experts.length}）`, children: <EntityList resource={expertList} /> },
          ]}
        />
      </Card>
      <DistributeDialog
        open={dialog != null}
        students={dialog?.students ?? []}
        experts={experts}
        onClose={() => distributing.close()}
        onDone={() => {
          dialog?.refresh();
          distributing.close();
          loadExperts();
        }}
      />
    </div>
  );
}
