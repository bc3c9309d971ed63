import { WORK_ORDER_USER_TYPES } from '@common/service/workOrders';
import { Descriptions, Drawer, Empty, Spin, Tag, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useState } from 'react';
import { type WorkOrderLog, type WorkOrderRow, workOrderInfo } from '@/api/service';

export const formatTime = (ms: number | null | undefined): string => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');

const STATUS_COLORS: Record<number, string> = { 0: 'warning', 1: 'processing', 2: 'success', 3: 'error' };

export function WorkOrderStatusTag({ status, name }: { status: number; name: string }) {
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{name}</Tag>;
}

const FIELD_LABELS: Record<string, string> = {
  reason: '申请说明',
  cardNo: '卡号',
  orderNo: '订单号',
  name: '用户',
  score: '新分数',
  examYear: '新高考年份',
  mobile: '新手机号',
  userType: '新用户类型',
  before: '原值',
};

function fieldValue(key: string, value: unknown): ReactNode {
  if (value == null || value === '') return '--';
  if (key === 'userType') return WORK_ORDER_USER_TYPES[Number(value)] ?? String(value);
  return String(value);
}

/** What the submitter asked for, as label / value pairs (the form's own fields). */
export function WorkOrderContent({ row }: { row: WorkOrderRow }) {
  const content = row.content ?? {};
  return (
    <Descriptions column={1} size="small" bordered>
      {Object.entries(content).map(([k, v]) => (
        <Descriptions.Item key={k} label={k === 'reason' && row.form === 'feedback' ? '反馈内容' : (FIELD_LABELS[k] ?? k)}>
          {k === 'before' && row.form === 'changePermission' ? fieldValue('userType', v) : fieldValue(k, v)}
        </Descriptions.Item>
      ))}
      <Descriptions.Item label="附件">
        {row.attachments?.length
          ? row.attachments.map((a) => (
              <div key={a.url}>
                <Typography.Link href={a.url} target="_blank" rel="noopener noreferrer">
                  {a.name}
                </Typography.Link>
              </div>
            ))
          : '无'}
      </Descriptions.Item>
    </Descriptions>
  );
}

const ACTION_NAMES: Record<string, string> = { submit: '提交', assign: '指派', handle: '处理', reject: '驳回' };

/** The detail drawer (详情 of 工单管理 and 提交工单): the order, what it asked for, the reply and the trail. */
export function WorkOrderDrawer({ workOrderId, onClose }: { workOrderId: number | null; onClose: () => void }) {
  const [row, setRow] = useState<(WorkOrderRow & { logs: WorkOrderLog[] }) | null>(null);
  useEffect(() => {
    setRow(null);
    if (workOrderId == null) return;
    workOrderInfo(workOrderId)
      .then(setRow)
      .catch(() => undefined);
  }, [workOrderId]);
  return (
    <Drawer title="工单详情" width={640} open={workOrderId != null} onClose={onClose} destroyOnHidden>
      {!row ? (
        <Spin />
      ) : (
        <>
          <Descriptions column={2} size="small" style={{ marginBottom: 16 }}>
            <Descriptions.Item label="工单号">{row.orderNo}</Descriptions.Item>
            <Descriptions.Item label="状态">
              <WorkOrderStatusTag status={row.status} name={row.statusName} />
            </Descriptions.Item>
            <Descriptions.Item label="工单类型">{row.formName}</Descriptions.Item>
            <Descriptions.Item label="门店">{row.storeName}</Descriptions.Item>
            <Descriptions.Item label="提交人">{row.submitByName}</Descriptions.Item>
            <Descriptions.Item label="提交时间">{formatTime(row.createTime)}</Descriptions.Item>
            <Descriptions.Item label="处理人">{row.handleByName ?? row.assigneeName ?? '--'}</Descriptions.Item>
            <Descriptions.Item label="处理时间">{formatTime(row.handleTime)}</Descriptions.Item>
            <Descriptions.Item label="标题" span={2}>
              {row.title}
            </Descriptions.Item>
          </Descriptions>
          <WorkOrderContent row={row} />
          <Descriptions column={1} size="small" bordered style={{ marginTop: 16 }}>
            <Descriptions.Item label="处理结果">{row.result ?? '--'}</Descriptions.Item>
            <Descriptions.Item label="回复">{row.reply ?? '--'}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 24 }}>
            处理记录
          </Typography.Title>
          {row.logs.length ? (
            <Timeline
              items={row.logs.map((l) => ({
                key: l.logId,
                children: (
                  <>
                    <div>
                      {ACTION_NAMES[l.action] ?? l.action} · {l.userName ?? '系统'} · {formatTime(l.createTime)}
                    </div>
                    {l.comment && <Typography.Text type="secondary">{l.comment}</Typography.Text>}
                  </>
                ),
              }))}
            />
          ) : (
            <Empty />
          )}
        </>
      )}
    </Drawer>
  );
}
