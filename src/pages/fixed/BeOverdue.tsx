import { useLogout } from '@refinedev/core';
import { Button, Result, Space, Typography } from 'antd';
import { useSession } from '@/session/sessionStore';

/** /beOverdue: the platform licence has expired — say since when and what to do about it. */
export default function BeOverdue() {
  const { platform } = useSession();
  const { mutate: logout } = useLogout();
  const phone = platform?.mobile?.kf_phone;
  return (
    <Result
      status="warning"
      title="平台授权已到期"
      subTitle={
        <Space direction="vertical">
          <Typography.Text>
            {platform?.title ?? '本平台'}的使用授权已于 {platform?.expiredate ?? '--'} 到期，系统功能暂停使用，数据均已保留。
          </Typography.Text>
          <Typography.Text>请联系平台管理员续费{phone ? `，或拨打客服电话 ${phone}` : ''}；续费后刷新本页即可恢复使用。</Typography.Text>
        </Space>
      }
      extra={[
        <Button key="reload" type="primary" onClick={() => window.location.reload()}>
          已续费，刷新
        </Button>,
        <Button key="logout" onClick={() => logout()}>
          退出登录
        </Button>,
      ]}
    />
  );
}
