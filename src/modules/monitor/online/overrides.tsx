import type { ResourceOverride } from '@/engine/resource';

/** An empty text cell of 在线用户 reads `--` (RuoYi): a session without a department or a known location. */
const orDash = (value: unknown) => (value === null || value === undefined || value === '' ? '--' : String(value));

/**
 * 在线用户 (schemas/monitor/sys_user_online.json, served by the monitor module's GET /dev-api/monitor/online/list):
 * the generic list; 强退 is the schema's `call` row action. Only the empty-cell text is said here.
 */
export const overrides: Record<string, ResourceOverride> = {
  sys_user_online: { cells: { deptName: orDash, loginLocation: orDash } },
};
