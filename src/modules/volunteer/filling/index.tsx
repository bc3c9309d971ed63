import { FormOutlined } from '@ant-design/icons';
import { Card, Empty, Space, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { StudentSelect } from '../shared/StudentSelect';
import { FillingWorkspace } from './FillingWorkspace';

/**
 * 专家填报 (menu component Filling/index): `?studentId=` opens the workspace for that student; without it the
 * expert picks one of their students first.
 */
export default function FillingPage() {
  const [params, setParams] = useSearchParams();
  const raw = params.get('studentId');
  const studentId = raw && /^\d+$/.test(raw) ? Number(raw) : null;
  const open = (id: number) => setParams({ studentId: String(id) });

  return (
    <div style={{ padding: 12 }}>
      {studentId ? (
        <FillingWorkspace key={studentId} studentId={studentId} onSwitch={open} />
      ) : (
        <Card>
          <Empty
            image={<FormOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />}
            description={
              <Space direction="vertical">
                <Typography.Text>请选择要填报志愿的学生</Typography.Text>
                <StudentSelect style={{ width: 320 }} onChange={(id) => id && open(id)} />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  也可以在「学生志愿」列表中点「填报」进入
                </Typography.Text>
              </Space>
            }
          />
        </Card>
      )}
    </div>
  );
}
