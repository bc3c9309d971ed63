import { BellOutlined, CheckOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { Alert, App, Button, Card, List, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { type DueMemos as Due, getDueMemos } from '@/api/system/memo';
import { Access } from '@/components/Access';
import { changeField } from '@/engine/dataProvider';
import type { ResourceDef } from '@/engine/resource';
import { onMemosChanged } from './memoEvents';

/**
 * 到期提醒: the signed-in user's notes whose 提醒时间 has come and that are not done (GET /dev-api/system/memo/due),
 * each with 完成, which saves 已完成 = 是 through the generic update (with the note's version), then reloads itself and
 * asks the page to reload the list. Hidden when nothing is due. Writes in the list reload it (memoEvents).
 */
export function DueMemos({ resource, onDone }: { resource: ResourceDef; onDone: () => void }) {
  const { message } = App.useApp();
  const [due, setDue] = useState<Due | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const load = useCallback(() => {
    getDueMemos()
      .then(setDue)
      .catch(() => {
        // The http layer has reported it; the panel keeps what it showed.
      });
  }, []);
  useEffect(() => {
    load();
    return onMemosChanged(load);
  }, [load]);

  const finish = async (record: BaseRecord) => {
    setBusy(Number(record.memoId));
    try {
      await changeField(resource.schema, record, 'done', 'Y');
      message.success('已标记完成');
      load();
      onDone();
    } catch {
      // Toasted by the http layer (e.g. 数据已被他人修改，请刷新后重试); the next read shows the stored state.
      load();
    } finally {
      setBusy(null);
    }
  };

  if (!due || due.total === 0) return null;
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
