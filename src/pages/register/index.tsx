import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Form, Input, Modal, message, Space } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { register } from '@/api/login';
import { getRegisterConfig, type RegisterConfig } from '@/api/settings';
import { useSession } from '@/session/sessionStore';
import { safeHtml } from '@/utils/html';
import { SmsCodeButton } from '../login/SmsCodeButton';
import '../login/login.css';

interface RegisterForm {
  username: string;
  realName?: string;
  mobile?: string;
  password: string;
  confirmPassword: string;
  code?: string;
  agree?: boolean;
}

/** /register: self-service sign-up (no token); the server decides whether registration is open. */
export default function RegisterPage() {
  const navigate = useNavigate();
  const { platform } = useSession();
  const [saving, setSaving] = useState(false);
  // 注册设置 (system/registerSettings): open or not, SMS code required, the agreement to accept.
  const [config, setConfig] = useState<RegisterConfig | null>(null);
  const [showAgreement, setShowAgreement] = useState(false);
  const [form] = Form.useForm<RegisterForm>();
  const mobile = Form.useWatch('mobile', form);
  useEffect(() => {
    getRegisterConfig()
      .then(setConfig)
      .catch(() => undefined);
  }, []);
  const sms = config?.smsRequired === true;
  const agreement = config?.agreement ?? '';

  const submit = async ({ agree: _agree, ...values }: RegisterForm) => {
    setSaving(true);
    try {
      const msg = await register({ ...values, username: values.username.trim(), mobile: values.mobile || undefined, code: sms ? values.code : undefined });
      message.success(msg);
      navigate('/login');
    } catch {
      // The http layer has shown why (taken name, closed registration…); the form keeps what was typed.
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="login-page">
      <Card className="login-card">
        <div className="login-title">
          <img src={platform?.logo || '/logo.svg'} alt="" />
          <span>{platform?.title ?? '志愿填报管理系统'} · 注册</span>
        </div>
        {config && !config.registerEnabled && <Alert type="warning" showIcon style={{ marginBottom: 16 }} message="当前系统没有开启注册功能" />}
        <Form<RegisterForm> form={form} size="large" onFinish={submit}>
          <Form.Item
            name="username"
            rules={[
              { required: true, whitespace: true, message: '请输入您的账号' },
              { min: 2, max: 20, message: '用户账号长度必须介于 2 和 20 之间' },
              { pattern: /^[A-Za-z0-9_]+$/, message: '账号只能包含字母、数字和下划线' },
            ]}
          >
            <Input prefix={<UserOutlined />} placeholder="账号" maxLength={20} autoComplete="username" />
          </Form.Item>
          <Form.Item name="realName" rules={[{ max: 30, message: '姓名不能超过 30 个字符' }]}>
            <Input prefix={<UserOutlined />} placeholder="姓名（选填）" maxLength={30} />
          </Form.Item>
          <Form.Item
            name="mobile"
            rules={[
              { required: sms, message: '请输入手机号' },
              { pattern: /^1[3-9]\d{9}$/, message: '手机号格式不正确' },
            ]}
          >
            <Input prefix={<MobileOutlined />} placeholder={sms ? '手机号' : '手机号（选填）'} maxLength={11} />
          </Form.Item>
          {sms && (
            <Form.Item required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="code" noStyle rules={[{ required: true, whitespace: true, message: '请输入短信验证码' }]}>
                  <Input prefix={<SafetyOutlined />} placeholder="短信验证码" maxLength={6} />
                </Form.Item>
                <SmsCodeButton mobile={mobile} purpose="register" />
              </Space.Compact>
            </Form.Item>
          )}
          <Form.Item
            name="password"
            rules={[
              { required: true, message: '请输入您的密码' },
              { min: 6, max: 20, message: '长度在 6 到 20 个字符' },
            ]}
          >
            <Input.Password prefix={<LockOutlined />} placeholder="密码" autoComplete="new-password" maxLength={20} />
          </Form.Item>
          <Form.Item
            name="confirmPassword"
            dependencies={['password']}
            rules={[
              { required: true, message: '请再次输入您的密码' },
              ({ getFieldValue }) => ({
                validator: (_r, v) => (!v || v === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致'))),
              }),
            ]}
          >
            <Input.Password prefix={<LockOutlined />} placeholder="确认密码" autoComplete="new-password" maxLength={20} />
          </Form.Item>
          {agreement && (
            <Form.Item
              name="agree"
              valuePropName="checked"
              rules={[{ validator: (_r, v) => (v ? Promise.resolve() : Promise.reject(new Error('请阅读并同意用户注册协议'))) }]}
            >
              <Checkbox>
                我已阅读并同意
                <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setShowAgreement(true)}>
                  《用户注册协议》
                </Button>
              </Checkbox>
            </Form.Item>
          )}
          <Form.Item style={{ marginBottom: 8 }}>
            <Button type="primary" htmlType="submit" block loading={saving}>
              {saving ? '注 册 中...' : '注 册'}
            </Button>
          </Form.Item>
          <div style={{ textAlign: 'right' }}>
            <Link to="/login">使用已有账户登录</Link>
          </div>
        </Form>
      </Card>
      <Modal title="用户注册协议" open={showAgreement} onCancel={() => setShowAgreement(false)} footer={null} width={720}>
        {/* Sanitised by the server when saved (server/system/settings.ts) and again here. */}
        <div style={{ maxHeight: '60vh', overflow: 'auto' }} dangerouslySetInnerHTML={{ __html: safeHtml(agreement) }} />
      </Modal>
    </div>
  );
}
