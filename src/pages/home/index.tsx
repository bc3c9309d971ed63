import { Card, Col, Descriptions, Row, Statistic, Typography } from 'antd';
import { useSession } from '@/session/sessionStore';
import { formatWan } from '@/utils/format';

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/** 首页 (/index): who is signed in, the platform at a glance and what they can open. */
export default function HomePage() {
  const { user, platform, sidebar } = useSession();
  const pages = sidebar.reduce((n, item) => n + (item.children?.length ?? 1), 0);
  return (
    <div style={{ padding: 16 }}>
      <Card>
        <Typography.Title level={4} style={{ marginTop: 0 }}>
          {greeting(new Date().getHours())}，{user?.realName ?? ''}
        </Typography.Title>
        <Typography.Text type="secondary">
          欢迎使用{platform?.title ?? '志愿填报管理系统'}。当前角色：{user?.roleName || '--'}
        </Typography.Text>
      </Card>
      <Row gutter={16} style={{ marginTop: 16 }}>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title="可用菜单" value={pages} suffix="项" />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title="平台访问量" value={formatWan(platform?.pv ?? 0)} />
          </Card>
        </Col>
        <Col xs={24} sm={8}>
          <Card>
            <Statistic title="注册人数" value={formatWan(platform?.registerNum ?? 0)} />
          </Card>
        </Col>
      </Row>
      <Card title="平台信息" style={{ marginTop: 16 }}>
        <Descriptions column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label="平台名称">{platform?.title}</Descriptions.Item>
          <Descriptions.Item label="授权到期">{platform?.expiredate}</Descriptions.Item>
          <Descriptions.Item label="客服电话">{platform?.mobile?.kf_phone || '--'}</Descriptions.Item>
          <Descriptions.Item label="当前版本">2.0.4</Descriptions.Item>
        </Descriptions>
      </Card>
    </div>
  );
}
