import { DownloadOutlined, ReadOutlined } from '@ant-design/icons';
import { createElement } from 'react';
import { downloadGallery, downloadResource } from '@/api/service';
import type { ResourceOverride } from '@/engine/resource';
import { openHelp } from './help/helpReader';

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

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = {
  service_app: appOverride,
  service_gallery: galleryOverride,
  service_resource: resourceOverride,
  service_help: helpOverride,
};
