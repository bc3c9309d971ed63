import { useList } from '@refinedev/core';
import type { WidgetProps } from '@rjsf/utils';
import { Radio } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { TreeSelect } from '@/components/TreeSelect';
import { EntityFormDialog } from '@/engine/pages/EntityForm';
import type { EngineRecordPageProps, ResourceDef } from '@/engine/resource';

/**
 * 新增菜单 / 修改菜单 (RuoYi system/menu/index dialog): the engine form of sys_menu showing only the fields of the
 * chosen 菜单类型 — 目录 (M) has no 组件路径 / 权限标识 / 路由参数 / 是否缓存, 按钮 (F) only 上级菜单, 名称, 排序 and
 * 权限标识 — and a 上级菜单 tree starting at 主类目 (0) without buttons. Saving, versions and refusals are the
 * generic form's.
 */

type MenuType = 'M' | 'C' | 'F';

const HIDDEN: Record<MenuType, string[]> = {
  M: ['component', 'perms', 'query', 'routeName', 'isCache'],
  C: [],
  F: ['icon', 'isFrame', 'path', 'component', 'query', 'routeName', 'isCache', 'visible', 'status'],
};

export const MENU_DEFAULTS = { parentId: 0, menuType: 'M', orderNum: 0, isFrame: 1, isCache: 0, visible: '0', status: '0' };

const TYPE_CHOICES = [
  { label: '目录', value: 'M' },
  { label: '菜单', value: 'C' },
  { label: '按钮', value: 'F' },
];

/** 菜单类型 as radios; tells the dialog the current type so it can show that type's fields. */
function MenuTypeWidget({ id, value, onChange, disabled, readonly, options }: WidgetProps) {
  const report = options.onType as ((t: MenuType) => void) | undefined;
  useEffect(() => {
    if (value === 'M' || value === 'C' || value === 'F') report?.(value);
  }, [value, report]);
  return <Radio.Group id={id} value={value} disabled={disabled || readonly} options={TYPE_CHOICES} onChange={(e) => onChange(e.target.value)} />;
}

/** 上级菜单: every directory and page under the root 主类目 (0); buttons cannot hold menus. */
function MenuParentWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  const { result } = useList({ resource: 'sys_menu', pagination: { mode: 'off' } });
  const data = useMemo(
    () => [{ menuId: 0, menuName: '主类目', parentId: -1 }, ...(result?.data ?? []).filter((m) => m.menuType !== 'F')] as Record<string, unknown>[],
    [result?.data],
  );
  return (
    <TreeSelect
      id={id}
      data={data}
      fieldNames={{ value: 'menuId', label: 'menuName' }}
      parentId="parentId"
      value={value ?? 0}
      onChange={(v) => onChange(v === undefined || v === null ? 0 : v)}
      placeholder="选择上级菜单"
      disabled={disabled || readonly}
    />
  );
}

/** The resource with the form options of one menu type: its hidden fields, the type radios and the parent tree. */
function forType(def: ResourceDef, type: MenuType, onType: (t: MenuType) => void): ResourceDef {
  const fields: Record<string, Record<string, unknown>> = { ...def.override.fields };
  fields.menuType = { ...fields.menuType, widget: MenuTypeWidget, onType };
  fields.parentId = { ...fields.parentId, widget: MenuParentWidget };
  // ui:options.widget overrides ui:widget (RJSF getUiOptions); 'hidden' leaves the field out of the grid.
  for (const name of HIDDEN[type]) fields[name] = { ...fields[name], widget: 'hidden' };
  return { ...def, override: { ...def.override, fields } };
}

export default function MenuFormDialog({ resource, id, onClose, defaults }: EngineRecordPageProps & { defaults?: Record<string, unknown> }) {
  const start = { ...MENU_DEFAULTS, ...defaults };
  const [type, setType] = useState<MenuType>(start.menuType as MenuType);
  const def = useMemo(() => forType(resource, type, setType), [resource, type]);
  return <EntityFormDialog resource={def} id={id} open onClose={onClose} defaults={id === undefined ? start : undefined} />;
}
