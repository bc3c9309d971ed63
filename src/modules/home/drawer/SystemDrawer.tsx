import { Button, Descriptions, Drawer, Empty, List, Tabs, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { listWorkOrders, type WorkOrderRow } from '@/api/service';
import { useAccess } from '@/components/Access';
import { useSession } from '@/session/sessionStore';
import { routeForComponent } from '../routeFor';
import { UpdateTimeline } from '../versions/UpdateTimeline';
import { useVersionInfo } from '../versions/useVersionInfo';
import { formatTime, VersionHistoryTable } from '../versions/VersionHistoryTable';

const STATUS_COLOR: Record<number, string> = { 0: 'orange', 1: 'blue', 2: 'green', 3: 'default' };

/** 工单: the latest work orders of the user's scope (WorkOrder/list of 服务中心), with a link to the full list. */
function WorkOrders({ active }: { active: boolean }) {
  const { routes } = useSession();
  const navigate = useNavigate();
  const [rows, setRows] = useState<WorkOrderRow[] | null>(null);
  useEffect(() => {
    if (!active || rows) return;
    listWorkOrders({ pageNum: 1, pageSize: 10 })
      .then((p) => setRows(p.rows))
      .catch(() => setRows([]));
  }, [active, rows]);
  const page = routeForComponent(routes, 'serviceCenter/workOrder/index') ?? routeForComponent(routes, 'serviceCenter/submitWorkOrder/index');
  return (
    <>
      <List<WorkOrderRow>
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无工单" /> }}
        renderItem={(w) => (
          <List.Item key={w.workOrderId} extra={<Tag color={STATUS_COLOR[w.status]}>{w.statusName}</Tag>}>
            <List.Item.Meta
              title={`${w.formName} · ${w.title}`}
              description={`${w.orderNo} · ${w.storeName} · ${dayjs(w.createTime).format('YYYY-MM-DD HH:mm')}${w.reply ? ` · 回复：${w.reply}` : ''}`}
            />
          </List.Item>
        )}
      />
      {page ? (
        <Button type="link" onClick={() => navigate(page.fullPath)}>
          查看全部工单
        </Button>
      ) : null}
    </>
  );
}

/** The home system drawer (spec §2.3): 系统更新, 工单, 版本更新. */
export function SystemDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { can } = useAccess();
  const [tab, setTab] = useState('updates');
  const { info, loading } = useVersionInfo(open);
  const canWorkOrders = can('service:workorder:list') || can('service:workorder:handle');
  return (
    <Drawer title="系统" open={open} onClose={onClose} width={720} destroyOnHidden>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'updates', label: '系统更新', children: <UpdateTimeline rows={info?.historylog ?? []} loading={loading} /> },
          ...(canWorkOrders ? [{ key: 'workOrders', label: '工单', children: <WorkOrders active={open && tab === 'workOrders'} /> }] : []),
          {
            key: 'versions',
            label: '版本更新',
            children: (
              <>
                <Descriptions bordered size="small" column={2} style={{ marginBottom: 12 }}>
                  <Descriptions.Item label="应用ID">{info?.appId || '--'}</Descriptions.Item>
                  <Descriptions.Item label="发布标签">{info?.lasttag || '--'}</Descriptions.Item>
                  <Descriptions.Item label="发布人">{info?.user || '--'}</Descriptions.Item>
                  <Descriptions.Item label="签名工具">{info?.toolsign || '--'}</Descriptions.Item>
                  <Descriptions.Item label="发布时间">{formatTime(info?.publish_time)}</Descriptions.Item>
                  <Descriptions.Item label="访问域名">{info?.domainName || '--'}</Descriptions.Item>
                </Descriptions>
                <Typography.Text type="secondary">更新记录</Typography.Text>
                <VersionHistoryTable rows={info?.historylog ?? []} loading={loading} pageSize={8} />
              </>
            ),
          },
        ]}
      />
    </Drawer>
  );
}
