import { useLogout } from '@refinedev/core';
import { Button, Result, Space, Typography } from 'antd';
import { useState } from 'react';
import { useAccess } from '@/components/Access';
import { RenewDialog } from '@/modules/finance/renewal/RenewDialog';
import { loadPlatform } from '@/session/loadSession';
import { useSession } from '@/session/sessionStore';

/**
 * /beOverdue: the platform licence has expired — say since when and what to do about it. A user allowed to renew
 * (finance:renewal:pay, the administrator) renews right here (账户续费); once the server has moved the expiry date
 * the platform info is reloaded and the guard lets everyone back in.
 */
export default function BeOverdue() {
  const { platform } = useSession();
  const { can } = useAccess();
  const { mutate: logout } = useLogout();
  const [renewing, setRenewing] = useState(false);
  const phone = platform?.mobile?.kf_phone;
  const mayRenew = can('finance:renewal:pay');
  return (
    <>
      <Result
        status="warning"
        title="平台授权已到期"
        subTitle={
          <Space direction="vertical">
            <Typography.Text>
              {platform?.title ?? '本平台'}的使用授权已于 {platform?.expiredate ?? '--'} 到期，系统功能暂停使用，数据均已保留。
            </Typography.Text>
            <Typography.Text>
              {mayRenew
                ? '您可以立即在线续费，续费成功后即可恢复使用'
                : `请联系平台管理员续费${phone ? `，或拨打客服电话 ${phone}` : ''}；续费后刷新本页即可恢复使用。`}
            </Typography.Text>
          </Space>
        }
        extra={[
          mayRenew && (
            <Button key="renew" type="primary" onClick={() => setRenewing(true)}>
              立即续费
            </Button>
          ),
          <Button key="reload" type={mayRenew ? 'default' : 'primary'} onClick={() => window.location.reload()}>
            已续费，刷新
          </Button>,
          <Button key="logout" onClick={() => logout()}>
            退出登录
          </Button>,
        ]}
      />
      <RenewDialog open={renewing} onClose={() => setRenewing(false)} onRenewed={() => loadPlatform().then(() => window.location.assign('/index'))} />
    </>
  );
}
