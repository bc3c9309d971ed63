import { PlayCircleOutlined } from '@ant-design/icons';
import { liveStatusText } from '@common/content/liveStatus';
import { createElement } from 'react';
import type { ResourceOverride } from '@/engine/resource';
import { LiveStatusTag } from './live/LiveStatusTag';

/**
 * 直播列表 (schemas/content/live_broadcast.json): the 直播状态 column shows the status derived from the times
 * (the rule of common/content/liveStatus.ts, the same the server answers), and 预览 plays the channel in a dialog.
 * The dialog is loaded on the first click, so the list's chunk stays small.
 */
export const liveOverride: ResourceOverride = {
  cells: { liveStatus: (_value, record) => createElement(LiveStatusTag, { text: liveStatusText(record, Date.now()) }) },
  rowActions: [
    {
      key: 'livePreview',
      label: '预览',
      permission: 'live:broadcast:query',
      icon: createElement(PlayCircleOutlined),
      onClick: async (record) => (await import('./live/livePreview')).openLivePreview(record),
    },
  ],
};

/** The overrides of this module by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = {
  live_broadcast: liveOverride,
};
