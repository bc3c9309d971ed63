import { AppstoreOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Statistic, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { getHomeSummary, type HomeSummary } from '@/api/home';
import { useAccess } from '@/components/Access';
import { useSession } from '@/session/sessionStore';
import { formatWan } from '@/utils/format';
import { SystemDrawer } from './drawer/SystemDrawer';
import { FastMenu } from './fastMenu/FastMenu';
import { QrCodeDialog } from './qrcode/QrCodeDialog';
import { StatisticsPanel } from './statistics/StatisticsPanel';
import { DashboardTabs } from './tabs/DashboardTabs';
import { TodoPanel } from './todo/TodoPanel';

/** 统计 on the home page: the same permission as the 统计 page. */
export const STATISTICS_PERMISSION = 'home:statistics:list';

function greeting(hour: number): string {
  if (hour < 6) return '凌晨好';
  if (hour < 12) return '上午好';
  if (hour < 14) return '中午好';
  if (hour < 18) return '下午好';
  return '晚上好';
}

/**
 * 首页 (/index, spec §2.3 main index, §7.8): what waits for the user (待办事项, counts that open their lists), the
 * platform's true figures, 快捷菜单, business statistics for those who may see them, the dashboard tabs, and the
 * system drawer and QR codes. Each part shows only what the user's role may open.
 */
export default function HomePage() {
  const { user, platform } = useSession();
  const { can } = useAccess();
  const [summary, setSummary] = useState<HomeSummary | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [qr, setQr] = useState(false);

  const load = useCallback(() => {
    getHomeSummary()
      .then(setSummary)
      .catch(() => undefined);
  }, []);
  useEffect(load, [load]);

  const figures = summary?.platform;
  return (
    <div style={{ padding: 16, display: 'grid', gap: 16 }}>
      <Card size="small">
        <Row align="middle" gutter={[16, 12]}>
          <Col flex="auto">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {greeting(new Date().getHours())}，{user?.realName ?? ''}
            </Typography.Title>
            <Typography.Text type="secondary">
              欢迎使用{platform?.title ?? '志愿填报管理系统'}。当前角色：{user?.roleName || '--'}
            </Typography.Text>
          </Col>
          <Col>
            <Space wrap>
              <Button icon={<QrcodeOutlined />} onClick={() => setQr(true)}>
                二维码
              </Button>
              <Button icon={<AppstoreOutlined />} onClick={() => setDrawer(true)}>
                系统
              </Button>
            </Space>
          </Col>
        </Row>
        <Row gutter={16} style={{ marginTop: 12 }}>
          <Col xs={12} sm={6}>
            <Statistic title="平台访问量" value={figures ? formatWan(figures.pv) : '--'} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title="今日访问" value={figures ? formatWan(figures.todayPv) : '--'} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title="注册人数" value={figures ? formatWan(figures.registerNum) : '--'} />
          </Col>
          <Col xs={12} sm={6}>
            <Statistic title="今日注册" value={figures ? formatWan(figures.todayRegistrations) : '--'} />
          </Col>
        </Row>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <TodoPanel items={summary?.todo ?? []} loading={!summary} />
        </Col>
        <Col xs={24} lg={10}>
          <FastMenu />
        </Col>
      </Row>
      {can(STATISTICS_PERMISSION) ? <StatisticsPanel initialDays={30} /> : null}
      <DashboardTabs />
      <SystemDrawer open={drawer} onClose={() => setDrawer(false)} />
      <QrCodeDialog open={qr} onClose={() => setQr(false)} platform={platform} />
    </div>
  );
}
