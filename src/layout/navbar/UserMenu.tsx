import { ClearOutlined, InfoCircleOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { App, Avatar, Button, Divider, Popover, Typography } from 'antd';
import { memo, useCallback, useState } from 'react';
import { useStableNavigate } from '@/router/useStableNavigate';
import { useSession } from '@/session/sessionStore';
import { clearCaches } from './clearCache';
import { PasswordModal } from './PasswordModal';
import { canSeeVersionDialog, VersionDialog } from './VersionDialog';
import { APP_VERSION, publishTime } from './version';

/**
 * Avatar (first character of the real name) with the user popover of spec §2.4. Refine's useLogout reads the location,
 * so this renders on every page switch: its dialogs get stable props and skip those renders.
 */
export const UserMenu = memo(function UserMenu() {
  const { user, platform } = useSession();
  const [versionOpen, setVersionOpen] = useState(false);
  const versionDialog = canSeeVersionDialog(platform?.storeId, user?.roleId);
  const { mutate: logout } = useLogout();
  const { modal } = App.useApp();
  const [open, setOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const navigate = useStableNavigate();
  const closeVersion = useCallback(() => setVersionOpen(false), []);
  const closePassword = useCallback(() => setPasswordOpen(false), []);
  const realName = user?.realName ?? '';

  const confirmLogout = () => {
    setOpen(false);
    modal.confirm({
      title: '提示',
      content: '确定退出系统吗？',
      okText: '确定',
      cancelText: '取消',
      onOk: () => logout(),
    });
  };

  const clear = () => {
    clearCaches();
    window.location.reload();
  };

  const row = { width: '100%', justifyContent: 'flex-start' } as const;
  const published = publishTime();
  const content = (
    <div style={{ width: 200 }}>
      <Typography.Text strong style={{ display: 'block', fontSize: 15 }}>
        {realName}
      </Typography.Text>
      <Typography.Text type="secondary">{user?.roleName || '--'}</Typography.Text>
      <Divider style={{ margin: '8px 0' }} />
      {/* RuoYi's avatar menu leads to 个人中心 (profile, avatar, password) first. */}
      <Button
        type="text"
        icon={<UserOutlined />}
        style={row}
        onClick={() => {
          setOpen(false);
          navigate('/user/profile');
        }}
      >
        个人中心
      </Button>
      <Button
        type="text"
        icon={<KeyOutlined />}
        style={row}
        onClick={() => {
          setOpen(false);
          setPasswordOpen(true);
        }}
      >
        修改密码
      </Button>
      <Button type="text" icon={<ClearOutlined />} style={row} onClick={clear}>
        清除缓存
      </Button>
      {versionDialog ? (
        <Button
          type="text"
          icon={<InfoCircleOutlined />}
          style={{ ...row, height: 'auto', flexDirection: 'column', alignItems: 'flex-start' }}
          onClick={() => {
            setOpen(false);
            setVersionOpen(true);
          }}
        >
          <span>当前版本 {APP_VERSION}</span>
          {published && <span style={{ fontSize: 12, color: 'rgba(0,0,0,.45)' }}>{published}</span>}
        </Button>
      ) : (
        <div style={{ padding: '4px 15px', color: 'rgba(0,0,0,.65)' }}>
          <InfoCircleOutlined style={{ marginRight: 8 }} />
          当前版本 {APP_VERSION}
          {published && <div style={{ fontSize: 12, color: 'rgba(0,0,0,.45)', paddingLeft: 22 }}>{published}</div>}
        </div>
      )}
      <Divider style={{ margin: '8px 0' }} />
      <Button type="text" danger icon={<LogoutOutlined />} style={row} onClick={confirmLogout}>
        退出登录
      </Button>
    </div>
  );

  return (
    <>
      <Popover content={content} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
        <button
          type="button"
          aria-label="用户菜单"
          style={{ cursor: 'pointer', display: 'inline-flex', alignItems: 'center', padding: 0, border: 0, background: 'transparent' }}
        >
          <Avatar style={{ background: 'var(--zy-primary, #409EFF)' }}>{realName.slice(0, 1)}</Avatar>
        </button>
      </Popover>
      {versionDialog && <VersionDialog open={versionOpen} onClose={closeVersion} />}
      <PasswordModal open={passwordOpen} mobile={user?.mobile} onClose={closePassword} />
    </>
  );
});
