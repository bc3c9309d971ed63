import { Button, Card, Col, Descriptions, Form, Input, message, Radio, Row, Spin, Tabs } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { getProfile, type Profile, updateProfile } from '@/api/profile';
import { sessionStore, useSession } from '@/session/sessionStore';
import { parseTime } from '@/utils/format';
import { AvatarUpload } from './AvatarUpload';
import { PasswordForm } from './PasswordForm';

/** 个人中心 (/user/profile): profile info and edit, avatar upload with crop/preview, change password. */
export default function ProfilePage() {
  const session = useSession();
  const [profile, setProfile] = useState<Profile | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm();

  const load = useCallback(async () => {
    const p = await getProfile();
    setProfile(p);
    form.setFieldsValue({ nickName: p.user.nickName, mobile: p.user.mobile ?? '', email: p.user.email ?? '', sex: p.user.sex });
  }, [form]);

  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  const save = async (values: { nickName: string; mobile: string; email: string; sex: string }) => {
    if (!profile) return;
    setSaving(true);
    try {
      const version = await updateProfile({ ...values, mobile: values.mobile || null, email: values.email || null, version: profile.user.version });
      message.success('修改成功');
      setProfile({ ...profile, user: { ...profile.user, ...values, version } });
      if (session.user) sessionStore.set({ user: { ...session.user, realName: values.nickName, mobile: values.mobile } });
    } catch {
      // Shown by the http layer (e.g. changed elsewhere: reload to see the current data).
    } finally {
      setSaving(false);
    }
  };

  if (!profile) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  const u = profile.user;
  return (
    <Row gutter={16} style={{ padding: 16 }}>
      <Col xs={24} md={8}>
        <Card title="个人信息">
          <div style={{ textAlign: 'center', marginBottom: 16 }}>
            <AvatarUpload
              url={u.avatar}
              name={u.nickName}
              onChange={(url) => {
                setProfile({ ...profile, user: { ...u, avatar: url } });
                if (session.user) sessionStore.set({ user: { ...session.user, avatar: url } });
              }}
            />
          </div>
          <Descriptions column={1} size="small">
            <Descriptions.Item label="用户名称">{u.userName}</Descriptions.Item>
            <Descriptions.Item label="手机号码">{u.mobile || '--'}</Descriptions.Item>
            <Descriptions.Item label="用户邮箱">{u.email || '--'}</Descriptions.Item>
            <Descriptions.Item label="所属部门">{u.deptName || '--'}</Descriptions.Item>
            <Descriptions.Item label="所属角色">{profile.roleGroup}</Descriptions.Item>
            <Descriptions.Item label="创建日期">{parseTime(u.createTime)}</Descriptions.Item>
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} md={16}>
        <Card title="基本资料">
          <Tabs
            items={[
              {
                key: 'info',
                label: '基本资料',
                children: (
                  <Form form={form} labelCol={{ flex: '90px' }} onFinish={save}>
                    <Form.Item label="用户昵称" name="nickName" rules={[{ required: true, whitespace: true, message: '用户昵称不能为空' }]}>
                      <Input maxLength={30} />
                    </Form.Item>
                    <Form.Item label="手机号码" name="mobile" rules={[{ pattern: /^1[3-9]\d{9}$/, message: '请输入正确的手机号码' }]}>
                      <Input maxLength={11} />
                    </Form.Item>
                    <Form.Item label="邮箱" name="email" rules={[{ type: 'email', message: '请输入正确的邮箱地址' }]}>
                      <Input maxLength={50} />
                    </Form.Item>
                    <Form.Item label="性别" name="sex">
                      <Radio.Group
                        options={[
                          { value: '0', label: '男' },
                          { value: '1', label: '女' },
                          { value: '2', label: '未知' },
                        ]}
                      />
                    </Form.Item>
                    <Form.Item label=" " colon={false}>
                      <Button type="primary" htmlType="submit" loading={saving}>
                        保存
                      </Button>
                    </Form.Item>
                  </Form>
                ),
              },
              { key: 'password', label: '修改密码', children: <PasswordForm mobile={u.mobile ?? undefined} /> },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
