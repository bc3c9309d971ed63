import { Card, Descriptions, Empty, Image, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { get } from '@/api/request';
import { useSession } from '@/session/sessionStore';

/** An app of 应用商店 as the public read API answers it (schemas/service/service_app.json x-public). */
interface PublicApp {
  appId: number;
  appName: string;
  icon: string | null;
  category: string;
  summary: string;
  description: string | null;
  screenshots: string | null;
  developer: string | null;
  appVersion: string | null;
  link: string | null;
  installCount: number | null;
}

const CATEGORIES: Record<string, string> = { '1': '填报工具', '2': '测评', '3': '营销推广', '4': '门店管理' };

/** /appDetail?appId= (public, spec §2.1): one app of 应用商店, reachable without signing in and with an expired licence. */
function AppOfStore({ appId }: { appId: string }) {
  const [app, setApp] = useState<PublicApp | null | undefined>(undefined);
  useEffect(() => {
    get<PublicApp>(`/appv2/api/public/app/${encodeURIComponent(appId)}`, undefined, { silent: true })
      .then((a) => setApp(a ?? null))
      .catch(() => setApp(null));
  }, [appId]);
  if (app === undefined) return <Spin />;
  if (app === null) return <Empty description="应用不存在或已下架" />;
  const shots = (app.screenshots ?? '').split(',').filter(Boolean);
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Space size={16} align="center">
        {app.icon && <img src={app.icon} alt="" width={72} height={72} style={{ borderRadius: 16 }} />}
        <div>
          <Typography.Title level={3} style={{ margin: 0 }}>
            {app.appName}
          </Typography.Title>
          <Typography.Text type="secondary">{app.summary}</Typography.Text>
          <div style={{ marginTop: 4 }}>
            <Tag color="blue">{CATEGORIES[app.category] ?? app.category}</Tag>
            {app.appVersion && <Tag>版本 {app.appVersion}</Tag>}
            <Tag>安装 {app.installCount ?? 0} 次</Tag>
          </div>
        </div>
      </Space>
      {shots.length > 0 && (
        <Image.PreviewGroup>
          <Space wrap>
            {shots.map((s) => (
              <Image key={s} src={s} width={150} alt="截图" />
            ))}
          </Space>
        </Image.PreviewGroup>
      )}
      {/* Sanitised on the server when saved (rich text allow-list). */}
      {app.description && <div style={{ lineHeight: 1.8 }} dangerouslySetInnerHTML={{ __html: app.description }} />}
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label="开发者">{app.developer ?? '--'}</Descriptions.Item>
        <Descriptions.Item label="访问地址">
          {app.link ? (
            <Typography.Link href={app.link} target="_blank" rel="noopener noreferrer">
              {app.link}
            </Typography.Link>
          ) : (
            '--'
          )}
        </Descriptions.Item>
      </Descriptions>
    </Space>
  );
}

/** /appDetail (public): with ?appId= an app of 应用商店, else the application's identity. */
export default function AppDetail() {
  const { platform } = useSession();
  const [params] = useSearchParams();
  const appId = params.get('appId');
  return (
    <div style={{ maxWidth: 720, margin: '48px auto', padding: 16 }}>
      <Card title={`${platform?.title ?? '志愿填报管理系统'} · 应用详情`}>
        {appId ? (
          <AppOfStore appId={appId} />
        ) : (
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label="应用名称">{platform?.title ?? '--'}</Descriptions.Item>
            <Descriptions.Item label="应用ID">{platform?.appId ?? '--'}</Descriptions.Item>
            <Descriptions.Item label="当前版本">2.0.4</Descriptions.Item>
            <Descriptions.Item label="客服电话">{platform?.mobile?.kf_phone ?? '--'}</Descriptions.Item>
            <Descriptions.Item label="官网地址">{platform?.gwaddr ?? '--'}</Descriptions.Item>
            <Descriptions.Item label="H5 地址">{platform?.h5addr ?? '--'}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
    </div>
  );
}
