import { Card, Timeline, Typography } from 'antd';

/** /log: what changed in each console version, newest first. */
const LOG: Array<{ version: string; date: string; items: string[] }> = [
  {
    version: '2.0.4',
    date: '2026-11-22',
    items: [
      '自带参考服务端：加密接口协议、账号登录与短信验证码登录、服务端会话',
      '按角色下发菜单与权限，侧边栏由服务端菜单生成',
      '个人中心：资料修改、头像裁剪上传、修改密码',
    ],
  },
];

export default function UpdateLog() {
  return (
    <div style={{ padding: 16 }}>
      <Card title="更新日志">
        <Timeline
          items={LOG.map((l) => ({
            children: (
              <>
                <Typography.Text strong>
                  v{l.version}（{l.date}）
                </Typography.Text>
                <ul style={{ margin: '4px 0 0', paddingInlineStart: 18 }}>
                  {l.items.map((i) => (
                    <li key={i}>{i}</li>
                  ))}
                </ul>
              </>
            ),
          }))}
        />
      </Card>
    </div>
  );
}
