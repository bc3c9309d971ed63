import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { getAppConfig } from '@/api/appConfig';
import { authProvider, type LoginVariables } from '@/providers/authProvider';
import { useSession } from '@/session/sessionStore';
import { SmsCodeButton } from './SmsCodeButton';
import './login.css';

type Mode = 'password' | 'sms';

/** The demo account is named only while the server says it signs in (/app-config.js): never on a real install. */
function demoAccountsShown(): boolean {
  try {
    return getAppConfig().demoAccounts === true;
  } catch {
    return false; // no key configuration: the http layer reports that on the first request
  }
}

/** /login: password and SMS-code sign-in (spec §2.1, §7.1). After sign-in the user lands on ?redirect or 首页. */
export default function LoginPage() {
  const [mode, setMode] = useState<Mode>('password');
  const [form] = Form.useForm();
  const mobile = Form.useWatch('mobile', form);
  const [params] = useSearchParams();
  const { platform } = useSession();
  const navigate = useNavigate();
  const [isPending, setPending] = useState(false);
  // The auth provider directly rather than Refine's useLogin: Refine is not loaded until the console opens.
  const login = async (variables: LoginVariables & { redirect?: string }) => {
    setPending(true);
    try {
      const result = await authProvider.login(variables);
      if (result.success && result.redirectTo) navigate(result.redirectTo, { replace: true });
    } finally {
      setPending(false);
    }
  };
  const redirect = params.get('redirect') ?? undefined;

  const submit = (values: { username?: string; password?: string; mobile?: string; code?: string }) => {
    if (mode === 'password') void login({ username: values.username?.trim() ?? '', password: values.password ?? '', redirect });
    else void login({ mobile: values.mobile?.trim() ?? '', code: values.code?.trim() ?? '', loginType: 'sms', redirect });
  };

  return (
    <div className="login-page">
      <Card className="login-card">
        <div className="login-title">
          <img src={platform?.logo || '/logo.svg'} alt="" />
          <span>{platform?.title ?? '志愿填报管理系统'}</span>
        </div>
        <Tabs
          centered
          activeKey={mode}
          onChange={(k) => setMode(k as Mode)}
          items={[
            { key: 'password', label: '账号密码登录' },
            { key: 'sms', label: '短信验证码登录' },
          ]}
        />
        <Form form={form} size="large" onFinish={submit} autoComplete="on">
          {mode === 'password' ? (
            <>
              <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入您的账号' }]}>
                <Input prefix={<UserOutlined />} placeholder="账号 / 手机号" autoComplete="username" maxLength={64} />
              </Form.Item>
              <Form.Item name="password" rules={[{ required: true, message: '请输入您的密码' }]}>
                <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" maxLength={64} />
              </Form.Item>
            </>
          ) : (
            <>
              <Form.Item
                name="mobile"
                rules={[
                  { required: true, message: '请输入手机号' },
                  { pattern: /^1[3-9]\d{9}$/, message: '手机号格式不正确' },
                ]}
              >
                <Input prefix={<MobileOutlined />} placeholder="手机号" maxLength={11} autoComplete="tel" />
              </Form.Item>
              <Form.Item>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }]}>
                    <Input prefix={<SafetyOutlined />} placeholder="验证码" maxLength={6} autoComplete="one-time-code" />
                  </Form.Item>
                  <SmsCodeButton mobile={mobile} purpose="login" />
                </Space.Compact>
              </Form.Item>
            </>
          )}
          <Form.Item style={{ marginBottom: 8 }}>
            <Button type="primary" htmlType="submit" block loading={isPending}>
              {isPending ? '登 录 中...' : '登 录'}
            </Button>
          </Form.Item>
          <div style={{ display: 'flex', justifyContent: 'space-between' }}>
            {demoAccountsShown() ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                演示账号：admin / admin123
              </Typography.Text>
            ) : (
              <span />
            )}
            {platform?.registerEnabled !== false && <Link to="/register">立即注册</Link>}
          </div>
        </Form>
      </Card>
      <div className="login-footer">Copyright © 2025-2026 {platform?.title ?? '志愿填报管理系统'} · 版本 2.0.4</div>
    </div>
  );
}
