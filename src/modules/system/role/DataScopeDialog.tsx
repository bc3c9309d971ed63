import type { TreeNode } from '@common/system/treeSelect';
import type { BaseRecord } from '@refinedev/core';
import { App, Form, Input, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { roleDeptTree, saveDataScope } from '@/api/system/role';
import { FormDialog } from '@/components/FormDialog';
import { CheckTree, submitKeys } from './CheckTree';

/**
 * 分配数据权限 (RuoYi system/role openDataScope): 角色名称 and 权限字符 shown, 权限范围 select and, for 自定数据权限, the
 * department tree (展开/折叠, 全选/全不选, 父子联动). Saved with PUT /system/role/dataScope.
 */

export const DATA_SCOPE_OPTIONS = [
  { value: '1', label: '全部数据权限' },
  { value: '2', label: '自定数据权限' },
  { value: '3', label: '本部门数据权限' },
  { value: '4', label: '本部门及以下数据权限' },
  { value: '5', label: '仅本人数据权限' },
];

export function DataScopeDialog({ record, onClose }: { record: BaseRecord | null; onClose: (saved: boolean) => void }) {
  const { message } = App.useApp();
  const [scope, setScope] = useState('1');
  const [depts, setDepts] = useState<TreeNode[] | null>(null);
  const [checked, setChecked] = useState<number[]>([]);
  const [linked, setLinked] = useState(true);
  const [expanded, setExpanded] = useState<number[]>([]);
  const [busy, setBusy] = useState(false);
  const roleId = record ? Number(record.roleId) : null;

  useEffect(() => {
    if (roleId === null || !record) return;
    let live = true;
    setScope(String(record.dataScope ?? '1'));
    setLinked(record.deptCheckStrictly !== false && record.deptCheckStrictly !== 0);
    setDepts(null);
    setChecked([]);
    roleDeptTree(roleId)
      .then(({ depts: tree, checkedKeys }) => {
        if (!live) return;
        setDepts(tree);
        setChecked(checkedKeys);
        setExpanded(tree.map((n) => n.id));
      })
      .catch(() => live && setDepts([]));
    return () => {
      live = false;
    };
  }, [roleId, record]);

  const save = async () => {
    if (roleId === null) return;
    if (scope === '2' && checked.length === 0) {
      message.error('自定数据权限请至少选择一个部门');
      return;
    }
    setBusy(true);
    try {
      await saveDataScope({ roleId, dataScope: scope, deptIds: scope === '2' ? submitKeys(depts ?? [], checked, linked) : [], deptCheckStrictly: linked });
      message.success('修改成功');
      onClose(true);
    } catch {
      // The http layer has shown the refusal; the dialog stays open.
    } finally {
      setBusy(false);
    }
  };

  return (
    <FormDialog title="分配数据权限" open={record !== null} width={600} busy={busy} onOk={save} onCancel={() => onClose(false)}>
      <Form className="data-scope-form" labelCol={{ flex: '100px' }} wrapperCol={{ flex: 'auto' }} colon={false}>
        <Form.Item label="角色名称">
          <Input value={String(record?.roleName ?? '')} disabled />
        </Form.Item>
        <Form.Item label="权限字符">
          <Input value={String(record?.roleKey ?? '')} disabled />
        </Form.Item>
        <Form.Item label="权限范围">
          <Select aria-label="权限范围" value={scope} onChange={setScope} options={DATA_SCOPE_OPTIONS} />
        </Form.Item>
        {scope === '2' && (
          <Form.Item label="数据权限">
            <Spin spinning={depts === null}>
              <CheckTree
                name="dept"
                nodes={depts ?? []}
                checked={checked}
                onChecked={setChecked}
                linked={linked}
                onLinked={setLinked}
                expanded={expanded}
                onExpanded={setExpanded}
                emptyText="暂无部门"
              />
            </Spin>
          </Form.Item>
        )}
      </Form>
    </FormDialog>
  );
}
