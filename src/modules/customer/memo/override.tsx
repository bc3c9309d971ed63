import type { ResourceOverride } from '@/engine/resource';

/**
 * 备忘录 (cus_memo, manage/memo/index): the generic list of schemas/customer/cus_memo.json; 新增 / 修改 open the note
 * dialog (a customer picked by name, the text kept with its line breaks).
 */
export const memoOverride: ResourceOverride = {
  pages: { create: () => import('./MemoDialog'), edit: () => import('./MemoDialog') },
  cells: { content: (value) => <span style={{ whiteSpace: 'pre-wrap' }}>{String(value ?? '')}</span> },
};
