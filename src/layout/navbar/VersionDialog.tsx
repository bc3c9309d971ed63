import { Descriptions, Modal } from 'antd';
import { useVersionInfo } from '@/modules/home/versions/useVersionInfo';
import { formatTime, VersionHistoryTable } from '@/modules/home/versions/VersionHistoryTable';
import { useSession } from '@/session/sessionStore';
import { APP_VERSION, publishTime } from './version';

/** Spec §9: version dialog 1400 wide. */
export const VERSION_DIALOG_WIDTH = 1400;

/** Spec §4: the version dialog is offered only when the platform store id is 1 and the user's roleId is 2. */
export function canSeeVersionDialog(storeId: number | null | undefined, roleId: number | null | undefined): boolean {
  return storeId === 1 && roleId === 2;
}

/** The running build and the release history of 版本管理 (spec §3 Version info). */
export function VersionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { platform, user } = useSession();
  const { info, loading } = useVersionInfo(open);
  return (
    <Modal title="版本信息" open={open} width={VERSION_DIALOG_WIDTH} onCancel={onClose} footer={null} destroyOnHidden>
      <Descriptions bordered size="small" column={3} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="应用ID">{platform?.appId || info?.appId || '--'}</Descriptions.Item>
        <Descriptions.Item label="当前用户">{user?.realName ?? '--'}</Descriptions.Item>
        <Descriptions.Item label="签名工具">{info?.toolsign || '--'}</Descriptions.Item>
        <Descriptions.Item label="发布时间">{publishTime() || formatTime(info?.publish_time)}</Descriptions.Item>
        <Descriptions.Item label="发布标签">{info?.lasttag || `v${APP_VERSION}`}</Descriptions.Item>
        <Descriptions.Item label="域名">{info?.domainName || window.location.host}</Descriptions.Item>
      </Descriptions>
      <VersionHistoryTable rows={info?.historylog ?? []} loading={loading} />
    </Modal>
  );
}
