import type { SettingGroup } from '@common/system/settings';
import { Alert, App, Button, Card, Form, InputNumber, Select, Space, Spin, Switch, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { getSettings, type SettingsView, type SettingValues, saveSettings } from '@/api/settings';
import { useAccess } from '@/components/Access';
import { RichTextEditor } from '@/components/RichTextEditor';
import { parseTime } from '@/utils/format';
import { fieldOfMessage, STALE_HINT } from './fieldError';

/** One field of a settings form: how it is shown; the server checks the same rules again (server/system/settings.ts). */
export type SettingField =
  | { key: string; label: string; widget: 'switch'; help?: string; on?: string; off?: string }
  | { key: string; label: string; widget: 'number'; help?: string; min: number; max: number; suffix?: string }
  | { key: string; label: string; widget: 'role' | 'roles'; help?: string; exclude?: string[]; required?: (values: SettingValues) => boolean }
  | { key: string; label: string; widget: 'richText'; help?: string; height?: number };

export interface SettingsPageProps {
  group: SettingGroup;
  title: string;
  description: ReactNode;
  fields: SettingField[];
  /** The button permission that allows saving (read-only without it). */
  editPermission: string;
}

/**
 * The generic settings screen of 注册设置 / 测评设置 / 审核配置: a form built from a field description, 保存 (sends the
 * whole group with the version it read; a concurrent save is refused and offers 重新加载) and 重置 (back to what was
 * loaded). The server's message is shown next to the field it names. Read-only without the edit permission.
 */
export function SettingsPage({ group, title, description, fields, editPermission }: SettingsPageProps) {
  const { message } = App.useApp();
  const { can } = useAccess();
  const editable = can(editPermission);
  const [form] = Form.useForm<SettingValues>();
  const [state, setState] = useState<SettingsView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [stale, setStale] = useState(false);
  const [saving, setSaving] = useState(false);
  /** Bumped on every load or save: the form is then reset to the stored values (what 重置 returns to). */
  const [formKey, setFormKey] = useState(0);
  const labels = useMemo(() => Object.fromEntries(fields.map((f) => [f.key, f.label])), [fields]);

  const load = useCallback(async () => {
    setLoadError(null);
    try {
      const next = await getSettings(group);
      setState(next);
      setStale(false);
      setSaveError(null);
      setFormKey((k) => k + 1);
    } catch (error) {
      setLoadError((error as Error).message || '加载设置失败');
    }
  }, [form, group]);

  useEffect(() => {
    load();
  }, [load]);

  // After a load or save the new initial values are rendered first, then the fields are reset to them (the form store
  // would otherwise keep what was typed, and 重置 must return to the stored values).
  useEffect(() => {
    form.resetFields();
  }, [form, formKey]);

  const save = async () => {
    if (!state) return;
    let values: SettingValues;
    try {
      values = await form.validateFields();
    } catch {
      return; // antd shows the field messages
    }
    const body: SettingValues = { ...state.values, ...values };
    for (const f of fields) if (f.widget === 'richText') body[f.key] = String(body[f.key] ?? '');
    setSaving(true);
    setSaveError(null);
    try {
      const saved = await saveSettings(group, body, state.version);
      setState({ ...state, ...saved });
      setFormKey((k) => k + 1);
      message.success('保存成功');
    } catch (error) {
      const msg = (error as Error).message || '保存失败';
      setSaveError(msg);
      setStale(msg.includes(STALE_HINT));
      const field = fieldOfMessage(msg, labels);
      if (field) form.setFields([{ name: field, errors: [msg] }]);
      message.error(msg);
    } finally {
      setSaving(false);
    }
  };

  const reset = () => {
    form.resetFields();
    setSaveError(null);
  };

  const roleOptions = (exclude: string[] = []) =>
    (state?.roles ?? []).filter((r) => !exclude.includes(r.roleKey)).map((r) => ({ value: r.roleKey, label: `${r.roleName}（${r.roleKey}）` }));

  const control = (f: SettingField) => {
    switch (f.widget) {
      case 'switch':
        return <Switch checkedChildren={f.on ?? '开'} unCheckedChildren={f.off ?? '关'} />;
      case 'number':
        return <InputNumber min={f.min} max={f.max} precision={0} style={{ width: 200 }} addonAfter={f.suffix} />;
      case 'role':
        return <Select options={roleOptions(f.exclude)} placeholder="请选择角色" style={{ maxWidth: 360 }} showSearch optionFilterProp="label" />;
      case 'roles':
        return <Select mode="multiple" options={roleOptions(f.exclude)} placeholder="请选择角色" style={{ maxWidth: 520 }} optionFilterProp="label" />;
      case 'richText':
        return <RichTextEditor height={f.height ?? 260} readOnly={!editable} placeholder={`请输入${f.label}`} />;
    }
  };

  const rules = (f: SettingField) => {
    if (f.widget === 'number') return [{ required: true, message: `请输入${f.label}` }];
    if (f.widget === 'role') return [{ required: true, message: `请选择${f.label}` }];
    if (f.widget === 'roles' && f.required) {
      const need = f.required;
      return [
        ({ getFieldsValue }: { getFieldsValue: () => SettingValues }) => ({
          validator: (_: unknown, v: unknown) =>
            need({ ...state?.values, ...getFieldsValue() }) && (!Array.isArray(v) || v.length === 0)
              ? Promise.reject(new Error(`请至少选择一个${f.label}`))
              : Promise.resolve(),
        }),
      ];
    }
    return [];
  };

  if (loadError) {
    return (
      <div style={{ padding: 16 }}>
        <Alert type="error" showIcon message={`${title}加载失败`} description={loadError} action={<Button onClick={load}>重试</Button>} />
      </div>
    );
  }
  if (!state) return <Spin style={{ display: 'block', margin: '80px auto' }} />;

  return (
    <div style={{ padding: 16 }} data-settings-group={group}>
      <Card
        title={title}
        extra={
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {state.version === 0 ? '尚未保存过，当前为系统默认值' : `最后修改：${state.updateBy ?? '--'} ${parseTime(state.updateTime) ?? ''}`}
          </Typography.Text>
        }
      >
        <Typography.Paragraph type="secondary">{description}</Typography.Paragraph>
        {!editable && <Alert type="info" showIcon style={{ marginBottom: 16 }} message="您没有修改此设置的权限，以下内容只读" />}
        {saveError && (
          <Alert
            type="error"
            showIcon
            closable
            style={{ marginBottom: 16 }}
            message={saveError}
            onClose={() => setSaveError(null)}
            action={stale ? <Button onClick={load}>重新加载</Button> : undefined}
          />
        )}
        <Form
          form={form}
          initialValues={state.values}
          labelCol={{ flex: '160px' }}
          wrapperCol={{ flex: 'auto' }}
          disabled={!editable}
          onFinish={save}
          style={{ maxWidth: 960 }}
        >
          {fields.map((f) => (
            <Form.Item
              key={f.key}
              name={f.key}
              label={f.label}
              extra={f.help}
              valuePropName={f.widget === 'switch' ? 'checked' : 'value'}
              rules={rules(f)}
              dependencies={f.widget === 'roles' && f.required ? fields.filter((o) => o.widget === 'switch').map((o) => o.key) : undefined}
            >
              {control(f)}
            </Form.Item>
          ))}
          {editable && (
            <Form.Item label=" " colon={false}>
              <Space>
                <Button type="primary" htmlType="submit" loading={saving}>
                  保存
                </Button>
                <Button onClick={reset} disabled={saving}>
                  重置
                </Button>
              </Space>
            </Form.Item>
          )}
        </Form>
      </Card>
    </div>
  );
}
