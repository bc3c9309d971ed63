import { BellOutlined, CheckOutlined } from '@ant-design/icons';
import { type BaseRecord, useCustom, useUpdate } from '@refinedev/core';
import { Alert, App, Button, Card, List, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { DueMemos as Due } from '@/api/system/memo';
import { Access } from '@/components/Access';
import type { ResourceDef } from '@/engine/resource';

/** The server's route of the caller's due notes (server/system/memos.ts), oldest reminder first. */
const DUE_URL = '/dev-api/system/memo/due';

/**
 * 到期提醒: the signed-in user's notes whose 提醒时间 has come and that are not done, each with 完成, which saves
 * 已完成 = 是 through Refine's update (the data provider sends the note's version).
 *
 * The panel's query is keyed under the resource's list, so Refine's own invalidation after any write of this
 * resource — a save or delete in the generic list, or 完成 here — reads both the list and the panel again.
 */
export function DueMemos({ resource }: { resource: ResourceDef }) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState<number | null>(null);
  const { query } = useCustom<Due>({
    url: DUE_URL,
    method: 'get',
    queryOptions: { queryKey: ['data', 'default', resource.name, 'list', 'due'] },
    // The http layer reports a failed read; the panel keeps what it showed.
    errorNotification: false,
  });
  const { mutateAsync: update } = useUpdate();

  const finish = async (record: BaseRecord) => {
    const id = Number(record.memoId);
    setBusy(id);
    try {
      await update({ resource: resource.name, id, values: { ...record, done: 'Y' }, successNotification: false, errorNotification: false });
      message.success('已标记完成');
    } catch {
      // Toasted by the http layer (e.g. 数据已被他人修改，请刷新后重试); Refine's invalidation shows the stored state.
    } finally {
      setBusy(null);
    }
  };

  // Refine's `result.data` is `{}` until the first answer; the query's own data is undefined until then.
  const due = query.data?.data;
  if (!due?.total) return null;
  return (
    <Card size="small" style={{ marginBottom: 12 }} data-testid="memo-due">
      <Alert
        type="warning"
        showIcon
        icon={<BellOutlined />}
        message={`到期提醒：${due.total} 条备忘已到提醒时间`}
        description={
          <List
            size="small"
            dataSource={due.rows}
            rowKey={(r) => String(r.memoId)}
            renderItem={(r) => (
              <List.Item
                data-memo={String(r.memoId)}
                actions={[
                  <Access key="done" permissions={[resource.permissions.edit ?? 'system:memo:edit']}>
                    <Button size="small" type="link" icon={<CheckOutlined />} loading={busy === Number(r.memoId)} onClick={() => finish(r)}>
                      完成
                    </Button>
                  </Access>,
                ]}
              >
                <Space direction="vertical" size={0}>
                  <Typography.Text strong>{String(r.title)}</Typography.Text>
                  {r.content ? <Typography.Text type="secondary">{String(r.content)}</Typography.Text> : null}
                  <Typography.Text type="secondary">提醒时间：{dayjs(Number(r.remindAt)).format('YYYY-MM-DD HH:mm')}</Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        }
      />
    </Card>
  );
}
