import type { GradientWarning } from '@common/volunteer/gradient';
import { checkGradient } from '@common/volunteer/gradient';
import type { DraftChoice } from '@common/volunteer/planSimulation';
import type { ChanceRow, PlanInfoItem, PlanItem, SaveItem, Tier } from '@/api/volunteer';
import { TIERS } from '@/api/volunteer';

/**
 * The plan editor's state as pure functions: add (slot limit, per-group major limit, duplicates), remove, move,
 * 服从调剂 per group, and the live gradient warnings from the same engine the server uses. The editor keeps the list
 * locally until 保存.
 */

export interface PlanLimits {
  province: string;
  /** Volunteer units per plan (山东 96). */
  slotLimit: number;
  /** Majors per 院校专业组 (3+1+2 provinces); 0 = no limit. */
  groupMajorLimit: number;
  /** ZY_TYPE: 1 专业+院校, 2 院校专业组 (服从调剂 per group), 3 院校+专业. */
  zyType: number;
}

/** What the catalogue year says of a line: a chance row just added may not carry it, a saved item always does. */
type CatalogueFacts = 'stale' | 'staleReason' | 'year' | 'majorCode' | 'subjectReq' | 'ownership';

/** An entry of the plan being edited (console only): a saved item or a chance row just added. */
export type EditorItem = Omit<PlanItem, 'sort' | CatalogueFacts> &
  Partial<Pick<PlanItem, CatalogueFacts>> &
  Pick<PlanInfoItem, 'majors'> & {
    /** The exam year the probability is for. */
    targetYear?: number | null;
  };

/** Keeps only the keys whose value the source actually had (undefined = the server did not send it). */
function present<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A table row as a plan item (tier and probability as shown; the server recomputes them at save time). */
export function toItem(row: ChanceRow | PlanItem | PlanInfoItem | EditorItem): EditorItem {
  const r = row as Partial<ChanceRow & PlanInfoItem & EditorItem>;
  return {
    lineId: row.lineId,
    schoolCode: row.schoolCode,
    schoolName: row.schoolName,
    majorName: row.majorName ?? null,
    groupCode: row.groupCode ?? null,
    province: row.province ?? null,
    city: row.city ?? null,
    tags: row.tags ?? [],
    minScore: row.minScore ?? null,
    minRank: row.minRank ?? null,
    tier: row.tier ?? null,
    probability: row.probability ?? null,
    probabilityText: row.probabilityText ?? null,
    obey: 'obey' in row ? (row.obey ?? null) : null,
    ...('majors' in row && row.majors ? { majors: row.majors } : {}),
    // The year of the figures travels with them (a table row's `year`, else its newest history year).
    ...present({
      year: r.year ?? r.years?.[0]?.year,
      targetYear: r.targetYear,
      majorCode: r.majorCode,
      subjectReq: r.subjectReq,
      ownership: r.ownership,
      stale: r.stale,
      staleReason: r.staleReason,
    }),
  };
}

/** Entries marked 失效 (not in the catalogue any more): the expert replaces them. */
export const staleItems = (items: readonly EditorItem[]): EditorItem[] => items.filter((i) => i.stale);

/** Plans where 服从调剂 is chosen per 院校专业组. */
export const needsObey = (limits: Pick<PlanLimits, 'zyType'>) => limits.zyType === 2;

/**
 * A saved 院校专业组 entry as the editor holds it: save and saveSort answer the group's majors only inside majorName
 * (joined by 、, as stored), zyInfo also as `majors`.
 */
export function fromSaved(item: PlanItem | PlanInfoItem, limits: Pick<PlanLimits, 'zyType'>): EditorItem {
  if (!needsObey(limits) || !item.groupCode || ('majors' in item && item.majors)) return toItem(item);
  return toItem({ ...item, majors: item.majorName ? item.majorName.split('、') : [] });
}

const groupKey = (i: Pick<EditorItem, 'schoolCode' | 'groupCode'>) => `${i.schoolCode}|${i.groupCode ?? ''}`;
const unitKey = (i: Pick<EditorItem, 'schoolCode' | 'groupCode' | 'majorName'>) => `${groupKey(i)}|${i.majorName ?? ''}`;
const label = (i: Pick<EditorItem, 'schoolName' | 'majorName'>) => [i.schoolName, i.majorName].filter(Boolean).join(' ');

export type AddResult = { ok: true; items: EditorItem[] } | { ok: false; items: EditorItem[]; reason: string };

/** Appends an option unless the plan is full, already holds it, or its group is at the major limit. */
export function addItem(items: readonly EditorItem[], row: ChanceRow | EditorItem, limits: PlanLimits): AddResult {
  const item = toItem(row as ChanceRow);
  // A 院校专业组 entry (majors picked inside it, groups/options) is the whole group, so the group itself is the unit.
  const whole = item.majors !== undefined;
  const key = whole ? groupKey : unitKey;
  const same = items.findIndex((i) => i.lineId === item.lineId || key(i) === key(item));
  const name = whole ? `${item.schoolName} 第${item.groupCode ?? ''}组` : label(item);
  if (same >= 0) return { ok: false, items: [...items], reason: `该志愿已在志愿表第 ${same + 1} 位：${name}` };
  if (items.length >= limits.slotLimit) {
    return { ok: false, items: [...items], reason: `志愿表已满：${limits.province}最多填报 ${limits.slotLimit} 个志愿，请先删除一些再添加` };
  }
  if (limits.groupMajorLimit > 0 && (item.majors?.length ?? 0) > limits.groupMajorLimit) {
    return { ok: false, items: [...items], reason: `每个院校专业组最多填报 ${limits.groupMajorLimit} 个专业，当前 ${item.majors?.length} 个` };
  }
  if (limits.groupMajorLimit > 0 && !whole) {
    const inGroup = new Set(items.filter((i) => groupKey(i) === groupKey(item)).map((i) => i.majorName ?? ''));
    if (inGroup.size >= limits.groupMajorLimit) {
      return {
        ok: false,
        items: [...items],
        reason: `${item.schoolName}${item.groupCode ? ` ${item.groupCode}组` : ''} 已填 ${inGroup.size} 个专业，达到每组 ${limits.groupMajorLimit} 个的上限`,
      };
    }
  }
  // A new group in a 专业组 province obeys adjustment by default (the safer choice); the expert can switch it off.
  const obey = needsObey(limits) ? (items.find((i) => groupKey(i) === groupKey(item))?.obey ?? item.obey ?? true) : null;
  return { ok: true, items: [...items, { ...item, obey }] };
}

export function removeItem(items: readonly EditorItem[], lineId: number): EditorItem[] {
  return items.filter((i) => i.lineId !== lineId);
}

/** Moves the entry at `from` to `to` (both 0-based), as a drag or 上移/下移 does. */
export function moveItem(items: readonly EditorItem[], from: number, to: number): EditorItem[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length) return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/** 服从调剂 for every entry of one 院校专业组. */
export function setObey(items: readonly EditorItem[], of: Pick<EditorItem, 'schoolCode' | 'groupCode'>, obey: boolean): EditorItem[] {
  const key = groupKey(of);
  return items.map((i) => (groupKey(i) === key ? { ...i, obey } : i));
}

/** The majors of one 院校专业组 entry (shown joined by 、 like the server stores them). */
export function setMajors(items: readonly EditorItem[], lineId: number, majors: string[]): EditorItem[] {
  return items.map((i) => (i.lineId === lineId ? { ...i, majors, majorName: majors.length ? majors.join('、') : null } : i));
}

/** Gradient and limit warnings (slot-limit, duplicate, group-major-limit, tier-order, too-many-rush, no-safety). */
export function planWarnings(items: readonly EditorItem[], limits: PlanLimits): GradientWarning[] {
  return checkGradient(
    items.map((i) => ({ schoolCode: i.schoolCode, schoolName: i.schoolName, groupCode: i.groupCode, majorName: i.majorName, tier: i.tier })),
    { slotLimit: limits.slotLimit, groupMajorLimit: limits.groupMajorLimit },
  );
}

/** Warnings about particular entries; plan-wide ones (too many 冲, no 保) name every entry and are not highlighted. */
const ROW_WARNINGS = new Set(['duplicate', 'tier-order', 'slot-limit', 'group-major-limit']);

/** Positions (0-based) named by an entry-level warning, for highlighting rows. */
export function warnedPositions(warnings: readonly GradientWarning[]): Set<number> {
  return new Set(warnings.filter((w) => ROW_WARNINGS.has(w.code)).flatMap((w) => w.positions));
}

export function tierCounts(items: readonly EditorItem[]): Record<Tier | 'none', number> {
  const counts = { 冲: 0, 稳: 0, 保: 0, none: 0 };
  for (const i of items) counts[i.tier ?? 'none']++;
  return counts;
}

/** What 保存 sends. */
export const toSaveItems = (items: readonly EditorItem[], limits: PlanLimits): SaveItem[] =>
  items.map((i) => (needsObey(limits) ? { lineId: i.lineId, obey: i.obey ?? true, ...(i.majors ? { majors: i.majors } : {}) } : { lineId: i.lineId }));

/** The majors of an entry as a comparable key ('' for none). */
const majorsKey = (i: EditorItem) => (i.majors ?? []).join('、');

/** Same entries (and 服从调剂) as the saved list, only in another order: saved with 排序 (saveSort). */
export function isReorderOnly(saved: readonly EditorItem[], current: readonly EditorItem[]): boolean {
  if (saved.length !== current.length) return false;
  const before = new Map(saved.map((i) => [i.lineId, `${i.obey ?? null}|${majorsKey(i)}`]));
  if (before.size !== current.length) return false;
  return current.every((i) => before.get(i.lineId) === `${i.obey ?? null}|${majorsKey(i)}`);
}

/** True when the lists differ in entries, order or 服从调剂. */
export function isDirty(saved: readonly EditorItem[], current: readonly EditorItem[]): boolean {
  if (saved.length !== current.length) return true;
  return current.some((i, n) => i.lineId !== saved[n].lineId || (i.obey ?? null) !== (saved[n].obey ?? null) || majorsKey(i) !== majorsKey(saved[n]));
}

/**
 * What the whole-plan simulation depends on, as one string: the lines in order and the tier shown for each. The editor
 * asks again only when it changes (not on 服从调剂 or a reload that left the list as it was).
 */
export const draftKey = (items: readonly EditorItem[]): string => items.map((i) => `${i.lineId}:${i.tier ?? ''}`).join(',');

/** The simulation's input from a draftKey: choices numbered in list order. */
export function draftOfKey(key: string): DraftChoice[] {
  if (!key) return [];
  return key.split(',').map((part, n) => {
    const [line, tier] = part.split(':');
    return { sort: n + 1, lineId: Number(line), tier: (TIERS as readonly string[]).includes(tier) ? (tier as Tier) : null };
  });
}

/** Whether the editor simulates the plan: single-line plans (a 院校专业组 plan is not simulated yet) with entries. */
export const simulable = (items: readonly EditorItem[], limits: Pick<PlanLimits, 'zyType'>): boolean => !needsObey(limits) && items.length > 0;
