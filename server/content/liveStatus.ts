import { liveStatusOf, liveStatusText } from '../../common/content/liveStatus.js';
import type { EntityHooks } from '../engine/hooks.js';

/**
 * A live broadcast as readers see it (docs/content.md "直播"): `liveStatus` is the status derived from the times
 * (common/content/liveStatus.ts, the one rule every reader uses) and `liveStatusText` its word (预告, 直播中, 已结束,
 * 回放). The engine applies it to ManagerLive/list and the public live API; the single-record answer (the edit form)
 * and export keep the stored value, which is the operator's hand (提前开播 / 手动结束), not a snapshot to go stale.
 */
export function presentLive(record: Record<string, unknown>, now: number): Record<string, unknown> {
  return { ...record, liveStatus: liveStatusOf(record, now), liveStatusText: liveStatusText(record, now) };
}

export const LIVE_HOOKS: EntityHooks = { present: presentLive };
