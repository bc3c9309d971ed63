import type { PlatformEdit, PlatformSettings } from '@common/system/platform';
import { Alert, App, Button, Card, Col, DatePicker, Form, Input, Row, Space, Spin, Statistic, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useCallback, useEffect, useState } from 'react';
import { getPlatformSettings, savePlatformSettings } from '@/api/settings';
import { useAccess } from '@/components/Access';
import { ImageUpload } from '@/components/ImageUpload';
import { loadPlatform } from '@/session/loadSession';
import { parseTime } from '@/utils/format';
import { fieldOfMessage } from '../settings/fieldError';

/** Form values: the editable fields, the expiry date as a dayjs value. */
type PlatformForm = Omit<PlatformEdit, 'expiredate'> & { expiredate: Dayjs | null };

/** Server field titles (server/system/platformRoutes.ts), to put a refusal next to its field. */
const LABELS: Record<string, string> = {
  title: '平台名称',
  expiredate: '到期日期',
  favicon: '网站图标',
  watermark: '水印',
  h5addr: 'H5地址',
  logo: 'Logo',
  smalllogo: '小Logo',
  qrUrl: '二维码地址',
  kfPhone: '客服电话',
  wxapp: '小程序地址',
  appdown: 'APP下载地址',
  gwaddr: '官网地址',
  appId: '应用ID',
  toolboxaddr: '工具箱地址',
  tipsTitle: '提示标题',
  tips: '提示内容',
  gddesc: '滚动公告',
};

const EDITABLE = Object.keys(LABELS) as Array<keyof PlatformEdit>;
const URL_RULE = { pattern: /^(https?:\/\/|\/)\S*$/, message: '请输入以 http://、https:// 或 / 开头的地址' };
const PHONE_RULE = { pattern: /^[\d\-+() ]{5,30}$/, message: '客服电话只能包含数字、空格和 - + ( )' };

const toForm = (p: PlatformSettings): PlatformForm => {
  const out: Record<string, unknown> = {};
  for (const key of EDITABLE) out[key] = p[key] ?? '';
  return { ...(out as PlatformForm), expiredate: p.expiredate ? dayjs(p.expiredate) : null };
};

/**
 * 平台设置 (system/platform/index, spec §1 platform info): the platform row grouped as 基本信息 / 图片 / 地址 / 授权.
 * 保存 sends the editable fields (empty → null); a refusal is shown next to the field the server names. After a save
 * the console's title and logo are refreshed from /appv2/api/index/platformInfo. Read-only without system:platform:edit.
 */
export default function PlatformSettingsPage() {
  const { message } = App.useApp();
  const { can } = useAccess();
  const editable = can('system:platform:edit');
  const [form] = Form.useForm<PlatformForm>();
  const [data, setData] = useState<PlatformSettings | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      setData(await getPlatformSettings());
      setFormKey((k) => k + 1);
    } catch (error) {
      setLoadError((error as Error).message || '加载平台设置失败');
    }
  }, []);

  useEffect(() => {
    load();
  }, [load]);

  // After a load or save the new initial values are rendered first, then the fields are reset to them (the form store
  // would otherwise keep what was typed, and 重置 must return to the stored values).
  useEffect(() => {
    form.resetFields();
  }, [form, formKey]);

  const save = async (values: PlatformForm) => {
    const body: Record<string, unknown> = {};
    for (const key of EDITABLE) {
      const v = values[key as keyof PlatformForm];
      body[key] = typeof v === 'string' ? v.trim() || null : (v ?? null);
    }
    body.title = String(values.title ?? '').trim();
    body.expiredate = values.expiredate ? values.expiredate.format('YYYY-MM-DD') : '';
    setSaving(true);
    setSaveError(null);
    try {
      await savePlatformSettings(body as PlatformEdit);
      message.success('保存成功');
      await Promise.all([load(), loadPlatform()]);
    } catch (error) {
      const msg = (error as Error).message || '保存失败';
      setSaveError(msg);
      const field = fieldOfMessage(msg, LABELS);
      if (field) form.setFields([{ name: field as keyof PlatformForm, errors: [msg] }]);
      message.error(msg);
    } finally {
      setSaving(false);
    }
  };

  if (loadError) {
    return (
      <div style={{ padding: 16 }}>
        <Alert type="error" showIcon message="平台设置加载失败" description={loadError} action={<Button onClick={load}>重试</Button>} />
      </div>
    );
  }
  if (!data) return <Spin style={{ display: 'block', margin: '80px auto' }} />;

  const expired = dayjs(`${data.expiredate}T23:59:59`).isBefore(dayjs());
  const image = (name: keyof PlatformEdit, label: string, help: string) => (
    <Col xs={24} sm={12} lg={6}>
      <Form.Item name={name} label={label} extra={help}>
        <ImageUpload limit={1} fileSize={2} fileType={['png', 'jpg', 'jpeg']} disabled={!editable} isShowTip={false} />
      </Form.Item>
    </Col>
  );

  return (
    <div style={{ padding: 16 }} className="platform-settings">
      {!editable && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="您没有修改平台设置的权限，以下内容只读" />}
      {saveError && <Alert type="error" showIcon closable style={{ marginBottom: 16 }} message={saveError} onClose={() => setSaveError(null)} />}
      <Form<PlatformForm> form={form} layout="vertical" initialValues={toForm(data)} disabled={!editable} onFinish={save}>
        <Card title="基本信息" style={{ marginBottom: 16 }}>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item
                name="title"
                label="平台名称"
                rules={[
                  { required: true, whitespace: true, message: '请输入平台名称' },
                  { max: 50, message: '平台名称长度不能超过 50 个字符' },
                ]}
              >
                <Input placeholder="显示在浏览器标题、登录页和侧边栏" maxLength={50} showCount />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="kfPhone" label="客服电话" rules={[PHONE_RULE]}>
                <Input placeholder="如 400-000-0000" maxLength={30} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="watermark" label="水印" extra="页面水印文字，留空不显示">
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="tipsTitle" label="提示标题" extra="顶栏提示的标题">
                <Input maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="tips" label="提示内容" extra="顶栏提示，每行一条，最多显示 3 行">
                <Input.TextArea rows={3} maxLength={500} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="gddesc" label="滚动公告" extra="顶栏滚动显示的公告">
                <Input.TextArea rows={3} maxLength={500} />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={24}>
            <Col xs={12} md={6}>
              <Statistic title="访问量" value={data.pv} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title="注册人数" value={data.registerNum} />
            </Col>
          </Row>
        </Card>

        <Card title="图片" style={{ marginBottom: 16 }}>
          <Row gutter={24}>
            {image('logo', 'Logo', '登录页与侧边栏展开时显示')}
            {image('smalllogo', '小Logo', '侧边栏收起时显示')}
            {image('favicon', '网站图标', '浏览器标签页图标')}
            {image('qrUrl', '二维码地址', '客服或公众号二维码')}
          </Row>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            图片格式 png/jpg/jpeg，大小不超过 2MB
          </Typography.Text>
        </Card>

        <Card title="地址" style={{ marginBottom: 16 }}>
          <Row gutter={24}>
            {(
              [
                ['h5addr', 'H5地址'],
                ['wxapp', '小程序地址'],
                ['appdown', 'APP下载地址'],
                ['gwaddr', '官网地址'],
                ['toolboxaddr', '工具箱地址'],
              ] as const
            ).map(([name, label]) => (
              <Col xs={24} md={12} key={name}>
                <Form.Item name={name} label={label} rules={[URL_RULE]} extra={name === 'toolboxaddr' ? '工具箱抽屉加载的地址，留空则不显示工具箱' : undefined}>
                  <Input placeholder="https://" maxLength={500} />
                </Form.Item>
              </Col>
            ))}
          </Row>
        </Card>

        <Card title="授权" style={{ marginBottom: 16 }}>
          <Row gutter={24}>
            <Col xs={24} md={8}>
              <Form.Item name="appId" label="应用ID">
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="expiredate" label="到期日期" rules={[{ required: true, message: '请选择到期日期' }]}>
                <DatePicker style={{ width: '100%' }} format="YYYY-MM-DD" allowClear={false} />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item label="授权状态">
                <Space>
                  {expired ? <Tag color="error">已过期</Tag> : <Tag color="success">有效</Tag>}
                  <Typography.Text type="secondary">店铺编号 {data.storeId}</Typography.Text>
                </Space>
              </Form.Item>
            </Col>
          </Row>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            最后修改：{parseTime(data.updateTime) ?? '--'}
          </Typography.Text>
        </Card>

        {editable && (
          <Space>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
            <Button onClick={() => form.resetFields()} disabled={saving}>
              重置
            </Button>
          </Space>
        )}
      </Form>
    </div>
  );
}
