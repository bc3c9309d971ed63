import { Card, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { type Expert, listExperts } from '@/api/volunteer';
import ExaminePage from '../examine';
import { ExpertsTab } from './ExpertsTab';
import { StudentsTab } from './StudentsTab';

/**
 * 领导审批 (menu component leader/AdvanceApproval/index): the plans waiting for the leader's approval (the 志愿审核 list,
 * 通过 / 驳回 behind volunteer:examine:approve), the student list with batch distribution, and the expert list.
 */
export default function AdvanceApprovalPage() {
  const [tab, setTab] = useState('approvals');
  const [experts, setExperts] = useState<Expert[]>([]);
  const [loading, setLoading] = useState(false);
  const [ownerId, setOwnerId] = useState<number | undefined>();

  const loadExperts = useCallback(async () => {
    setLoading(true);
    try {
      setExperts(await listExperts());
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    loadExperts();
  }, [loadExperts]);

  return (
    <div style={{ padding: 16 }}>
      <Card>
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            { key: 'approvals', label: '待审批方案', children: <ExaminePage embedded /> },
            { key: 'students', label: '学生列表', children: <StudentsTab experts={experts} ownerId={ownerId} onChanged={loadExperts} /> },
            {
              key: 'experts',
              label: `专家列表（${experts.length}）`,
              children: (
                <ExpertsTab
                  experts={experts}
                  loading={loading}
                  onShowStudents={(e) => {
                    setOwnerId(e.userId);
                    setTab('students');
                  }}
                />
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
