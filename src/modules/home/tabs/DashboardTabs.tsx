import { type LiveStatusText, liveStatusText } from '@common/content/liveStatus';
import { TABS, type Tab } from '@common/home/tabs';
import { Avatar, Button, Card, Empty, Image, List, Spin, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { getTabList, type TabRow } from '@/api/home';
import { useDict } from '@/components/DictTag/useDict';
import { useSession } from '@/session/sessionStore';
import { routeForComponent } from '../routeFor';

/** Where 更多 goes per tab (the full list in the user's own menu, when they have it). */
const MORE: Record<Tab, string> = {
  app: 'serviceCenter/appStore/index',
  resource: 'serviceCenter/resourceDownload/index',
  gallery: 'serviceCenter/marketingGallery/index',
  live: 'liveBroadcast/index',
};

/** The colour of each status word; the word is derived from the times (common/content/liveStatus.ts). */
const LIVE_COLOR: Record<LiveStatusText, string> = { 预告: 'blue', 直播中: 'red', 已结束: 'default', 回放: 'purple' };

const str = (v: unknown) => (v == null ? '' : String(v));
const day = (v: unknown) => (v ? dayjs(Number(v)).format('YYYY-MM-DD') : '');

/** The category dictionaries of 服务中心 (server/service/dicts.ts): codes are shown by their labels. */
const CATEGORY_DICT: Partial<Record<Tab, string>> = { app: 'service_app_category', resource: 'service_resource_category', gallery: 'service_gallery_category' };

function Rows({ tab, rows }: { tab: Tab; rows: TabRow[] }) {
  const dict = useDict(CATEGORY_DICT[tab]);
  const category = (v: unknown) => dict.find((d) => d.value === str(v))?.label ?? str(v);
  if (!rows.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`暂无${TABS[tab]}`} />;
  if (tab === 'gallery')
    return (
      <Image.PreviewGroup>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))', gap: 8 }}>
          {rows.map((r) => (
            <div key={str(r.galleryId)}>
              <Image src={str(r.image)} alt={str(r.title)} height={90} width="100%" style={{ objectFit: 'cover', borderRadius: 4 }} />
              <Typography.Text ellipsis style={{ fontSize: 12 }}>
                {str(r.title)}
              </Typography.Text>
            </div>
          ))}
        </div>
      </Image.PreviewGroup>
    );
  return (
    <List<TabRow>
      size="small"
      dataSource={rows}
      renderItem={(r) => {
        if (tab === 'app')
          return (
            <List.Item key={str(r.appId)} extra={<Typography.Text type="secondary">{str(r.installCount)} 次安装</Typography.Text>}>
              <List.Item.Meta
                avatar={
                  <Avatar shape="square" src={str(r.icon) || undefined}>
                    {str(r.appName).slice(0, 1)}
                  </Avatar>
                }
                title={
                  <>
                    {str(r.appName)} <Tag>{category(r.category)}</Tag>
                  </>
                }
                description={str(r.summary)}
              />
            </List.Item>
          );
        if (tab === 'resource')
          return (
            <List.Item key={str(r.resourceId)} extra={<Typography.Text type="secondary">下载 {str(r.downloadCount)} 次</Typography.Text>}>
              <List.Item.Meta title={str(r.title)} description={`${category(r.category)} · ${str(r.fileName)} · ${day(r.createTime)}`} />
            </List.Item>
          );
        const st = liveStatusText(r, Date.now());
        return (
          <List.Item key={str(r.liveId)} extra={<Tag color={LIVE_COLOR[st]}>{st}</Tag>}>
            <List.Item.Meta
              avatar={r.poster ? <Avatar shape="square" src={str(r.poster)} /> : null}
              title={str(r.title)}
              description={`${str(r.anchor) || '主讲人待定'} · ${r.startTime ? dayjs(Number(r.startTime)).format('YYYY-MM-DD HH:mm') : '时间待定'}`}
            />
          </List.Item>
        );
      }}
    />
  );
}

/** The dashboard tabs (spec §2.3): 推荐应用, 资源下载, 营销图库, 直播 — each list loaded when its tab is opened. */
export function DashboardTabs() {
  const { routes } = useSession();
  const navigate = useNavigate();
  const [tab, setTab] = useState<Tab>('app');
  const [rows, setRows] = useState<Partial<Record<Tab, TabRow[]>>>({});
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (rows[tab]) return;
    let live = true;
    setLoading(true);
    getTabList(tab)
      .then((r) => live && setRows((cur) => ({ ...cur, [tab]: r.rows })))
      .catch(() => undefined)
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [tab, rows]);
  const more = routeForComponent(routes, MORE[tab]);
  return (
    <Card size="small" styles={{ body: { paddingTop: 0 } }}>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Tab)}
        tabBarExtraContent={
          more ? (
            <Button type="link" size="small" onClick={() => navigate(more.fullPath)}>
              更多
            </Button>
          ) : null
        }
        items={(Object.keys(TABS) as Tab[]).map((k) => ({
          key: k,
          label: TABS[k],
          children: (
            <Spin spinning={loading && k === tab}>
              <div style={{ maxHeight: 360, overflow: 'auto' }}>
                <Rows tab={k} rows={rows[k] ?? []} />
              </div>
            </Spin>
          ),
        }))}
      />
    </Card>
  );
}
