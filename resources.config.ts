import type { ResourceProps } from '@refinedev/core';
import { createElement } from 'react';
import { clearDictCache } from './src/components/DictTag/useDict';
import { DictTypeLink } from './src/engine/custom/DictTypeLink';
import { buildResourceDef, normaliseComponent, type ResourceDef, type ResourceOverride, toRefineResource } from './src/engine/resource';
import type { EntitySchema } from './src/engine/types';
import { jobLogOverride, jobOverride } from './src/modules/monitor/job/overrides';
import { appOverride, galleryOverride, helpOverride, resourceOverride } from './src/modules/service/overrides';
import { menuOverride } from './src/modules/system/menu/overrides';
import { roleOverride } from './src/modules/system/role/overrides';
import { userOverride } from './src/modules/system/user/overrides';

/**
 * The console's resources, one per schemas/*.json (docs/schemas.md). Every schema file is read at build time; each
 * becomes a Refine resource (name = $id; meta.label = title; meta.permission = the prefix of its x-permissions;
 * meta.schema = the schema) served by the generic list / form / show pages of src/engine and the one data provider
 * (src/engine/dataProvider.ts). Its x-menu.component makes the seeded menu entry open the generic list.
 *
 * Overrides — a resource needs no entry here; add one only to change the generic screens:
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

export const overrides: Record<string, ResourceOverride> = {
  // 字典管理: the type links to its entries; any change makes the dictionaries load afresh.
  sys_dict_type: {
    cells: { dictType: (value, record) => createElement(DictTypeLink, { dictId: record.dictId, dictType: value }) },
    afterWrite: () => clearDictCache(),
  },
  // 用户管理: department tree, status switch, 重置密码 / 分配角色, the form with 岗位 / 角色 (src/modules/system/user).
  sys_user: userOverride,
  // 角色管理: the role dialog with the menu tree, status through changeStatus, 数据权限 / 分配用户 per row.
  sys_role: roleOverride,
  // 菜单管理: icons drawn in the list and picked in the form, fields by 菜单类型, 新增 (a child) per row.
  sys_menu: menuOverride,
  // 定时任务: the form with the handler registry and next fire times, 执行一次 / 调度日志 per row (src/modules/monitor/job).
  sys_job: jobOverride,
  // 调度日志: the hidden route /monitor/job-log/index/:jobId lists the runs of one job (0 = all).
  sys_job_log: jobLogOverride,
  // 服务中心: 营销图库 with the generated posters and 下载, 资源下载's 下载, 帮助指南's 阅读 drawer (src/modules/service).
  service_app: appOverride,
  service_gallery: galleryOverride,
  service_resource: resourceOverride,
  service_help: helpOverride,
  // 字典数据: the hidden route /system/dict-data/index/:dictId lists the entries of one type.
  sys_dict_data: {
    components: ['system/dict/data'],
    pages: { list: () => import('./src/engine/custom/DictDataPage') },
    fields: { listClass: { choices: LIST_CLASSES } },
    afterWrite: () => clearDictCache(),
  },
};

const files = import.meta.glob<EntitySchema>(['./schemas/*.json', './schemas/*/*.json'], { eager: true, import: 'default' });

/** Every schema, in file-name order. */
export const schemas: EntitySchema[] = Object.keys(files)
  .sort()
  .map((file) => files[file]);

/** Resource definitions by name ($id). */
export const resourceDefs: Record<string, ResourceDef> = Object.fromEntries(schemas.map((s) => [s.$id, buildResourceDef(s, overrides[s.$id])]));

/** What <Refine resources> gets. */
export const resources: ResourceProps[] = Object.values(resourceDefs).map(toRefineResource);

/** The resource whose x-menu.component is this server menu component string ('system/config/index'), if any. */
export function resourceForComponent(component: string): ResourceDef | undefined {
  const key = normaliseComponent(component);
  return Object.values(resourceDefs).find((d) => d.components.includes(key));
}

export function getResourceDef(name: string): ResourceDef | undefined {
  return resourceDefs[name];
}
