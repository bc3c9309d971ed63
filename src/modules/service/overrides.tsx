import { DownloadOutlined, FileSearchOutlined, ReadOutlined, UserSwitchOutlined } from '@ant-design/icons';
import type { BaseRecord } from '@refinedev/core';
import { Button } from 'antd';
import { createElement } from 'react';
import { downloadGallery, downloadResource, type WorkOrderRow } from '@/api/service';
import type { ResourceOverride } from '@/engine/resource';
import { storeSearchField } from '@/modules/customer/shared/StoreSelect';
import { openHelp } from './help/helpReader';
import { showWorkOrder } from './workOrder/openers';

/**
 * 服务中心 overrides of the generic screens (src/resources/): 营销图库 gets the generated posters and a 下载 per
 * material, 资源下载 a 下载 per file (both counted by the server), 帮助指南 a 阅读 drawer.
 */
/** Counters start empty (null) on a new row; they read as 0. */
const count = (value: unknown) => String(Number(value ?? 0));

export const appOverride: ResourceOverride = {
  cells: { installCount: count },
};

export const galleryOverride: ResourceOverride = {
  cells: { downloadCount: count },
  pages: { list: () => import('./gallery/GalleryPage') },
  rowActions: [
    {
      key: 'download',
      label: '下载',
      permission: 'service:gallery:download',
      icon: createElement(DownloadOutlined),
      onClick: async (record, ctx) => {
        await downloadGallery(Number(record.galleryId)).catch(() => undefined);
        ctx.refresh();
      },
    },
  ],
};

export const resourceOverride: ResourceOverride = {
  cells: { downloadCount: count },
  rowActions: [
    {
      key: 'download',
      label: '下载',
      permission: 'service:resource:download',
      icon: createElement(DownloadOutlined),
      onClick: async (record, ctx) => {
        await downloadResource(Number(record.resourceId)).catch(() => undefined);
        ctx.refresh();
      },
    },
  ],
};

export const helpOverride: ResourceOverride = {
  cells: { viewCount: count },
  pages: { list: () => import('./help/HelpPage') },
  rowActions: [
    {
      key: 'read',
      label: '阅读',
      permission: 'service:help:list',
      icon: createElement(ReadOutlined),
      onClick: (record) => openHelp(Number(record.helpId)),
    },
  ],
};

/**
 * 工单管理 / 提交工单 (the lists of WorkOrder/list; 处理 and 驳回 are declared in the schema): the order number and 详情
 * open the detail drawer of the page (workOrder/, submitWorkOrder/); 指派 (headquarters, 待处理 only) its dialog.
 */
const workOrderDetail = {
  key: 'detail',
  label: '详情',
  icon: createElement(FileSearchOutlined),
  onClick: (r: BaseRecord, ctx: { resource: { name: string } }) => showWorkOrder({ detail: { id: Number(r.workOrderId), resource: ctx.resource.name } }),
};
const orderNoCell = (resource: string) => (v: unknown, r: BaseRecord) => (
  <Button type="link" size="small" style={{ padding: 0 }} onClick={() => showWorkOrder({ detail: { id: Number(r.workOrderId), resource } })}>
    {String(v)}
  </Button>
);

export const workOrderOverride: ResourceOverride = {
  pages: { list: () => import('./workOrder') },
  // 门店: a select of the stores, for whoever sees them all (headquarters).
  searchFields: { storeId: storeSearchField },
  cells: {
    orderNo: orderNoCell('service_work_order'),
    storeName: (v) => String(v ?? '--'),
    handleByName: (v, r) => String(v ?? r.assigneeName ?? '--'),
  },
  rowActions: [
    workOrderDetail,
    {
      key: 'assign',
      label: '指派',
      permission: 'service:workorder:handle',
      icon: createElement(UserSwitchOutlined),
      visible: (r) => Number(r.status) === 0,
      onClick: (r, ctx) => showWorkOrder({ assign: { row: r as unknown as WorkOrderRow, refresh: ctx.refresh } }),
    },
  ],
};

export const myWorkOrderOverride: ResourceOverride = {
  pages: { list: () => import('./submitWorkOrder') },
  cells: { orderNo: orderNoCell('service_my_work_order'), reply: (v) => String(v ?? '--') },
  rowActions: [workOrderDetail],
};

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = {
  service_app: appOverride,
  service_gallery: galleryOverride,
  service_resource: resourceOverride,
  service_help: helpOverride,
  service_work_order: workOrderOverride,
  service_my_work_order: myWorkOrderOverride,
};
