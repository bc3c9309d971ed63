import { App, Button, Input, Modal, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { shareLink } from '@/api/volunteer';
import { formatTime } from '../shared/format';
import { RetryAlert } from '../shared/RetryAlert';
import { useLoad } from '../shared/useLoad';

/** Copies text; falls back to a hidden textarea where the clipboard API is not allowed (plain http). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** A read-only share link of the plan (reused while unexpired; 重新生成 revokes earlier links). */
export function ShareDialog({ open, studentId, studentName, onClose }: { open: boolean; studentId: number; studentName: string; onClose: () => void }) {
  const { message, modal } = App.useApp();
  const [renewing, setRenewing] = useState(false);
  const { data, loading, error, reload, setData } = useLoad(() => shareLink(studentId), open, [studentId]);
  const url = data ? new URL(data.url, window.location.origin).toString() : '';

  const copy = async () => {
    if (await copyText(url)) message.success('分享链接已复制，可以发给学生或家长');
    else message.error('复制失败：请选中链接后按 Ctrl+C 手动复制');
  };
  const renew = () =>
    modal.confirm({
      title: '确认提示',
      content: '重新生成后，之前发出的分享链接将全部失效，是否继续？',
      okText: '重新生成',
      cancelText: '取消',
      onOk: async () => {
        setRenewing(true);
        try {
          setData(await shareLink(studentId, true));
          message.success('已生成新的分享链接');
        } finally {
          setRenewing(false);
        }
      },
    });

  return (
    <Modal open={open} title={`分享志愿方案 · ${studentName}`} onCancel={onClose} footer={null} width={560} destroyOnHidden>
      <Spin spinning={loading || renewing} tip="正在生成分享链接...">
        <RetryAlert error={error} title="分享链接生成失败" onRetry={reload} />
        {data ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text type="secondary">打开链接可只读查看当前志愿方案（不显示手机号），有效期至 {formatTime(data.expireTime)}。</Typography.Text>
            <Space.Compact style={{ width: '100%' }}>
              <Input readOnly value={url} aria-label="分享链接" onFocus={(e) => e.target.select()} />
              <Button type="primary" onClick={copy}>
                复制链接
              </Button>
            </Space.Compact>
            <Button size="small" onClick={renew}>
              重新生成（使旧链接失效）
            </Button>
          </Space>
        ) : null}
      </Spin>
    </Modal>
  );
}
