import { LockOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, message } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { register } from '@/api/login';
import { useSession } from '@/session/sessionStore';
import '../login/login.css';

interface RegisterForm {
  username: string;
  realName?: string;
  mobile?: string;
  password: string;
  confirmPassword: string;
}

/** /register: self-service sign-up (no token); the server decides whether registration is open. */
export default function RegisterPage() {
  const navigate = useNavigate();
  const { platform } = useSession();
  const [saving, setSaving] = useState(false);

  const submit = async (values: RegisterForm) => {
    setSaving(true);
    try {
      const msg = await register({ ...values, username: values.username.trim(), mobile: values.mobile || undefined });
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
        <Form<RegisterForm> size="large" onFinish={submit}>
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
          <Form.Item name="mobile" rules={[{ pattern: /^1[3-9]\d{9}$/, message: '手机号格式不正确' }]}>
            <Input prefix={<MobileOutlined />} placeholder="手机号（选填）" maxLength={11} />
          </Form.Item>
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
    </div>
  );
}
