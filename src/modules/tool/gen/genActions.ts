import type { BaseRecord } from '@refinedev/core';
import { createActionChannel } from '@/utils/actionChannel';

/**
 * The row and toolbar buttons of 代码生成 are plain callbacks (overrides.tsx); their dialogs (导入表, 代码预览, 生成代码)
 * and the 同步 confirmation live in the list page (GenListPage). An action channel (src/utils/actionChannel.ts) carries
 * the request from one to the other.
 */
export type GenAction =
  | { kind: 'import'; refresh: () => void }
  | { kind: 'preview'; tableId: number }
  | { kind: 'sync'; record: BaseRecord; refresh: () => void }
  | { kind: 'code'; record: BaseRecord };

const channel = createActionChannel<GenAction>();

export const requestGenAction = channel.request;
export const useGenAction = channel.use;
