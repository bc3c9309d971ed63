import { Card } from 'antd';
import { UpdateTimeline } from '@/modules/home/versions/UpdateTimeline';
import { useVersionInfo } from '@/modules/home/versions/useVersionInfo';

/** /log: what changed in each console version, newest first, as maintained in 版本管理. */
export default function UpdateLog() {
  const { info, loading } = useVersionInfo();
  return (
    <div style={{ padding: 16 }}>
      <Card title="更新日志">
        <UpdateTimeline rows={info?.historylog ?? []} loading={loading} />
      </Card>
    </div>
  );
}
