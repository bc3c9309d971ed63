import { Descriptions, Modal, Table } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { getVersionLog, type VersionLog } from '@/api/platform';
import { useSession } from '@/session/sessionStore';
import { APP_VERSION, publishTime } from './version';

/** Spec §9: version dialog 1400 wide. */
export const VERSION_DIALOG_WIDTH = 1400;

/** Spec §4: the version dialog is offered only when the platform store id is 1 and the user's roleId is 2. */
export function canSeeVersionDialog(storeId: number | null | undefined, roleId: number | null | undefined): boolean {
  return storeId === 1 && roleId === 2;
}

const time = (ms: number) => dayjs(ms).format('YYYY-MM-DD HH:mm:ss');

/** The running build (app id, user, signing tool, publish time, tag, domain) and the change-log history. */
export function VersionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { platform, user } = useSession();
  const [rows, setRows] = useState<VersionLog[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!open) return;
    setLoading(true);
    getVersionLog()
      .then(setRows)
      .catch(() => undefined)
      .finally(() => setLoading(false));
  }, [open]);
  const current = rows[0];
  return (
    <Modal title="版本信息" open={open} width={VERSION_DIALOG_WIDTH} onCancel={onClose} footer={null} destroyOnHidden>
      <Descriptions bordered size="small" column={3} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="应用ID">{platform?.appId ?? current?.appId ?? '--'}</Descriptions.Item>
        <Descriptions.Item label="当前用户">{user?.realName ?? '--'}</Descriptions.Item>
        <Descriptions.Item label="签名工具">{current?.signTool ?? '--'}</Descriptions.Item>
        <Descriptions.Item label="发布时间">{publishTime() || (current ? time(current.publishTime) : '--')}</Descriptions.Item>
        <Descriptions.Item label="发布标签">v{APP_VERSION}</Descriptions.Item>
        <Descriptions.Item label="域名">{window.location.host}</Descriptions.Item>
      </Descriptions>
      <Table<VersionLog>
        rowKey="logId"
        size="small"
        loading={loading}
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: '发布人', dataIndex: 'userName', width: 120 },
          { title: '发布时间', dataIndex: 'publishTime', width: 180, render: time },
          { title: '变更文件数', dataIndex: 'changedFiles', width: 110 },
          { title: '发布标签', dataIndex: 'version', width: 110 },
          { title: '更新日志', dataIndex: 'log' },
        ]}
      />
    </Modal>
  );
}
