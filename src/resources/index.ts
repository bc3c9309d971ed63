import type { EntitySchema } from '@common/engine/types';
import type { ResourceProps } from '@refinedev/core';
import { createElement } from 'react';
import { clearDictCache } from '@/components/DictTag/useDict';
import { DictTypeLink } from '@/engine/custom/DictTypeLink';
import { createResourceRegistry } from '@/engine/registry';
import type { ResourceDef, ResourceOverride } from '@/engine/resource';

/**
 * The console's resources, one per schemas/*.json (docs/schemas.md). Every schema file is read at build time; each
 * becomes a Refine resource (name = $id; meta.label = title; meta.permission = the prefix of its x-permissions;
 * meta.schema = the schema) served by the generic list / form / show pages of src/engine and the one data provider
 * (src/engine/dataProvider.ts). Its x-menu.component makes the seeded menu entry open the generic list. A schema
 * file the server has and this build did not gets its resource at sign-in (runtime.ts), with the generic pages.
 * The engine reaches this registry only through ResourceRegistryContext (src/providers/RefineShell.tsx).
 *
 * Overrides — a resource needs no entry; add one only to change the generic screens. A module keeps them beside its
 * screens, in any src/modules/<module>/…/overrides.tsx that exports `overrides` by schema $id (found here by that
 * name); the few below belong to no module:
 *
 *   export const overrides: Record<string, ResourceOverride> = {
 *     sys_user: {
 *       // Replace one page. The module's default export receives { resource } (list) or
 *       // { resource, id?, onClose(saved) } (create / edit / show; shown in the dialog, or in place of the list in
 *       // page mode). Pages not named stay generic.
 *       pages: { edit: () => import('@/modules/system/user/UserEdit') },
 *       // Extra per-row buttons after 修改 / 删除, each behind its own permission (none = everyone).
 *       rowActions: [
 *         { key: 'resetPwd', label: '重置密码', permission: 'system:user:resetPwd', onClick: (record, ctx) => { … ctx.refresh(); } },
 *       ],
 *       // Extra toolbar buttons after 新增 / 修改 / 删除 / 导入 / 导出; `selection` enables them only with one
 *       // ('single') or at least one ('multiple') selected row.
 *       toolbar: [{ key: 'sync', label: '同步', selection: 'multiple', onClick: (ctx) => { … ctx.selectedRowKeys … } }],
 *       // Replace how one column's cells render.
 *       cells: { status: (value, record) => … },
 *       // Extra ui:options of form fields (e.g. fixed choices of a select).
 *       fields: { listClass: { choices: [{ label: '默认', value: 'default' }] } },
 *       // More server menu component strings that open this resource (hidden routes).
 *       components: ['system/user/profile'],
 *       // Called after every successful write from the generic pages.
 *       afterWrite: (ctx) => { … },
 *       // Merged into the Refine resource meta.
 *       meta: { icon: … },
 *     },
 *   };
 *
 * `ctx` (ActionContext) holds the resource, selectedRowKeys / selectedRows, the applied search `query` and refresh().
 */

/** 回显样式 of dictionary entries (RuoYi's list): the listClass values DictTag colours. */
const LIST_CLASSES = [
  { label: '默认(default)', value: 'default' },
  { label: '主要(primary)', value: 'primary' },
  { label: '成功(success)', value: 'success' },
  { label: '信息(info)', value: 'info' },
  { label: '警告(warning)', value: 'warning' },
  { label: '危险(danger)', value: 'danger' },
];

const ownOverrides: Record<string, ResourceOverride> = {
  // 字典管理: the type links to its entries; any change makes the dictionaries load afresh.
  sys_dict_type: {
    cells: { dictType: (value, record) => createElement(DictTypeLink, { dictId: record.dictId, dictType: value }) },
    afterWrite: () => clearDictCache(),
  },
  // 字典数据: the hidden route /system/dict-data/index/:dictId lists the entries of one type.
  sys_dict_data: {
    components: ['system/dict/data'],
    pages: { list: () => import('@/engine/custom/DictDataPage') },
    fields: { listClass: { choices: LIST_CLASSES } },
    afterWrite: () => clearDictCache(),
  },
};

const moduleOverrides = import.meta.glob<Record<string, ResourceOverride>>('../modules/**/overrides.tsx', { eager: true, import: 'overrides' });

/** Every override by schema $id: the modules' (by convention) and the ones above; one schema has one owner. */
export const overrides: Record<string, ResourceOverride> = { ...ownOverrides };
for (const [file, found] of Object.entries(moduleOverrides).sort(([a], [b]) => a.localeCompare(b))) {
  for (const [name, override] of Object.entries(found ?? {})) {
    if (overrides[name]) throw new Error(`${file}: ${name} 的覆盖已在别处定义`);
    overrides[name] = override;
  }
}

const files = import.meta.glob<EntitySchema>(['../../schemas/*.json', '../../schemas/*/*.json'], { eager: true, import: 'default' });

/** Every schema this build was made with, in file-name order. */
export const schemas: EntitySchema[] = Object.keys(files)
  .sort()
  .map((file) => files[file]);

/** The console's registry: the built schemas, plus those the server adds at sign-in (runtime.ts). */
export const registry = createResourceRegistry(schemas, overrides);

/** The built resources as <Refine resources> gets them (tests; the console asks the registry, runtime ones too). */
export const resources: ResourceProps[] = registry.refineResources();

/** The resource whose x-menu.component is this server menu component string ('system/config/index'), if any. */
export function resourceForComponent(component: string): ResourceDef | undefined {
  return registry.forComponent(component);
}

export function getResourceDef(name: string): ResourceDef | undefined {
  return registry.get(name);
}
