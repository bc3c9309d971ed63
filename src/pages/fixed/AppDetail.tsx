import { Card, Descriptions } from 'antd';
import { useSession } from '@/session/sessionStore';

/** /appDetail (public): the application's identity, reachable without signing in. */
export default function AppDetail() {
  const { platform } = useSession();
  return (
    <div style={{ maxWidth: 720, margin: '48px auto', padding: 16 }}>
      <Card title={`${platform?.title ?? '志愿填报管理系统'} · 应用详情`}>
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label="应用名称">{platform?.title ?? '--'}</Descriptions.Item>
          <Descriptions.Item label="应用ID">{platform?.appId ?? '--'}</Descriptions.Item>
          <Descriptions.Item label="当前版本">2.0.4</Descriptions.Item>
          <Descriptions.Item label="客服电话">{platform?.mobile?.kf_phone ?? '--'}</Descriptions.Item>
          <Descriptions.Item label="官网地址">{platform?.gwaddr ?? '--'}</Descriptions.Item>
          <Descriptions.Item label="H5 地址">{platform?.h5addr ?? '--'}</Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
