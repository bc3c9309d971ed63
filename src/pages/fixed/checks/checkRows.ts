/** One line of a self-check page (/test1 连接检测, /test2 浏览器检测): what was checked, how it went, what to do. */
export type CheckStatus = 'ok' | 'warn' | 'error' | 'running';

export interface CheckRow {
  key: string;
  item: string;
  status: CheckStatus;
  detail: string;
  /** What the user can do about a warning or an error. */
  advice?: string;
}

export const STATUS_TEXT: Record<CheckStatus, string> = { ok: '正常', warn: '注意', error: '异常', running: '检测中' };
