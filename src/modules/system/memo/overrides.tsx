import type { ResourceOverride } from '@/engine/resource';

/** 备忘录 (sys_memo): the generic list under the 到期提醒 panel (MemoPage.tsx). */
export const memoOverride: ResourceOverride = {
  pages: { list: () => import('./MemoPage') },
};

/** The overrides of this folder by schema $id, found by src/resources/ (every overrides.tsx under src/modules/). */
export const overrides: Record<string, ResourceOverride> = { sys_memo: memoOverride };
