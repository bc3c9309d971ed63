/**
 * How many top-level entries the optional top navigation shows before the rest collapse into 更多菜单
 * (spec §2.4: page width / 3 / 85, RuoYi TopNav visibleNumber).
 */

/** Label of the overflow submenu. */
export const MORE_MENU_LABEL = '更多菜单';

/** Pixel budget per tab: a third of the page belongs to the top nav, 85 px per entry. */
const SHARE_OF_WIDTH = 3;
const TAB_WIDTH = 85;

/** parseInt(width / 3 / 85), never negative (a zero or unmeasured width shows no tabs, everything under 更多菜单). */
export function visibleNumber(bodyWidth: number): number {
  if (!Number.isFinite(bodyWidth) || bodyWidth <= 0) return 0;
  return Math.trunc(bodyWidth / SHARE_OF_WIDTH / TAB_WIDTH);
}

/** Split the entries into the ones shown and the overflow under 更多菜单 (empty when everything fits). */
export function splitTopNav<T>(items: readonly T[], width: number): { visible: T[]; more: T[] } {
  const count = visibleNumber(width);
  return { visible: items.slice(0, count), more: items.slice(count) };
}
