import { QuestionCircleOutlined } from '@ant-design/icons';
import type { TreeNode } from '@common/system/treeSelect';
import { type BaseKey, type BaseRecord, useCreate, useOne, useUpdate } from '@refinedev/core';
import { Alert, Form, Input, InputNumber, Radio, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { menuTreeselect, roleMenuTreeselect } from '@/api/system/role';
import { useDict } from '@/components/DictTag';
import { FormDialog, useFormDialog } from '@/components/FormDialog';
import type { EngineRecordPageProps } from '@/engine/resource';
import { CheckTree, submitKeys } from './CheckTree';

/**
 * 添加角色 / 修改角色 (RuoYi system/role dialog): 角色名称, 权限字符, 角色顺序, 状态, 菜单权限 (checkable menu tree with
 * 展开/折叠, 全选/全不选, 父子联动) and 备注. Saving goes through the engine data provider (useCreate / useUpdate, so the
 * update carries the record's version) with `menuIds` — the checked keys, plus the half-checked parents when linked —
 * which the server keeps in sys_role_menu (server/system/roleHooks.ts).
 */

interface RoleForm {
  roleName?: string;
  roleKey?: string;
  roleSort?: number;
  status?: string;
  remark?: string | null;
}

export default function RoleFormDialog({ resource, id, onClose }: EngineRecordPageProps) {
  const [form] = Form.useForm<RoleForm>();
  const creating = id === undefined;
  const statuses = useDict('sys_normal_disable');
  const [menus, setMenus] = useState<TreeNode[] | null>(null);
  const [checked, setChecked] = useState<number[]>([]);
  const [linked, setLinked] = useState(true);
  const [expanded, setExpanded] = useState<number[]>([]);
  const { mutateAsync: create } = useCreate();
  const { mutateAsync: update } = useUpdate();
  const { result: record, query } = useOne<BaseRecord>({
    resource: resource.name,
    id: id ?? '',
    queryOptions: { enabled: !creating, gcTime: 0, staleTime: 0 },
  });
  // The version the edit started from (a refused save keeps being refused until the dialog is reopened).
  const loadedVersion = useRef<unknown>(undefined);

  useEffect(() => {
    let live = true;
    (async () => {
      try {
        if (creating) {
          const tree = await menuTreeselect();
          if (live) setMenus(tree);
        } else {
          const { menus: tree, checkedKeys } = await roleMenuTreeselect(Number(id));
          if (!live) return;
          setMenus(tree);
          setChecked(checkedKeys);
        }
      } catch {
        if (live) setMenus([]);
      }
    })();
    return () => {
      live = false;
    };
  }, [creating, id]);

  useEffect(() => {
    if (creating || !record || loadedVersion.current !== undefined) return;
    loadedVersion.current = record.version ?? null;
    form.setFieldsValue({
      roleName: record.roleName as string,
      roleKey: record.roleKey as string,
      roleSort: record.roleSort as number,
      status: record.status as string,
      remark: (record.remark as string | null) ?? '',
    });
    // roleMenuTreeselect answers the keys to check for this mode (linked: no parent of another checked key).
    setLinked(record.menuCheckStrictly !== false && record.menuCheckStrictly !== 0);
  }, [creating, record, form]);

  const save = async (values: RoleForm) => {
    const body = {
      roleName: values.roleName?.trim(),
      roleKey: values.roleKey?.trim(),
      roleSort: values.roleSort,
      status: values.status,
      remark: values.remark?.trim() ? values.remark.trim() : null,
      menuCheckStrictly: linked,
    };
    const meta = { extraBody: { menuIds: submitKeys(menus ?? [], checked, linked) } };
    if (creating) {
      await create({ resource: resource.name, values: { ...body, dataScope: '1' }, meta, successNotification: false, errorNotification: false });
      return '新增成功';
    }
    await update({
      resource: resource.name,
      id: id as BaseKey,
      values: { ...body, version: loadedVersion.current ?? undefined },
      meta,
      successNotification: false,
      errorNotification: false,
      mutationMode: 'pessimistic',
    });
    return '修改成功';
  };

  const { dialog } = useFormDialog(form, { save, onClose });
  const loading = menus === null || (!creating && query.isLoading);
  return (
    <FormDialog title={creating ? '添加角色' : '修改角色'} width={600} {...dialog} loading={loading} okDisabled={loading}>
      <div className="role-form">
        {!creating && query.isError && <Alert type="error" showIcon message={query.error?.message || '加载失败'} />}
        <Form<RoleForm>
          form={form}
          labelCol={{ flex: '100px' }}
          wrapperCol={{ flex: 'auto' }}
          colon={false}
          initialValues={{ roleSort: 0, status: '0' }}
          disabled={dialog.busy}
        >
          <Form.Item
            label="角色名称"
            name="roleName"
            rules={[
              { required: true, whitespace: true, message: '角色名称不能为空' },
              { max: 30, message: '角色名称长度不能超过 30 个字符' },
            ]}
          >
            <Input placeholder="请输入角色名称" maxLength={30} />
          </Form.Item>
          <Form.Item
            label={
              <span>
                <Tooltip title="控制器中定义的权限字符，如：@PreAuthorize(`@ss.hasRole('admin')`)">
                  <QuestionCircleOutlined style={{ marginRight: 4 }} />
                </Tooltip>
                权限字符
              </span>
            }
            name="roleKey"
            rules={[
              { required: true, whitespace: true, message: '权限字符不能为空' },
              { max: 100, message: '权限字符长度不能超过 100 个字符' },
            ]}
          >
            <Input placeholder="请输入权限字符" maxLength={100} />
          </Form.Item>
          <Form.Item label="角色顺序" name="roleSort" rules={[{ required: true, message: '角色顺序不能为空' }]}>
            <InputNumber min={0} max={9999} precision={0} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label="状态" name="status">
            <Radio.Group options={statuses.map((d) => ({ label: d.label, value: d.value }))} />
          </Form.Item>
          <Form.Item label="菜单权限">
            <CheckTree
              name="menu"
              nodes={menus ?? []}
              checked={checked}
              onChecked={setChecked}
              linked={linked}
              onLinked={setLinked}
              expanded={expanded}
              onExpanded={setExpanded}
              emptyText="加载中…"
            />
          </Form.Item>
          <Form.Item label="备注" name="remark" rules={[{ max: 500, message: '备注长度不能超过 500 个字符' }]}>
            <Input.TextArea placeholder="请输入内容" rows={3} maxLength={500} />
          </Form.Item>
        </Form>
      </div>
    </FormDialog>
  );
}
