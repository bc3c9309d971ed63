import { describe, expect, it } from 'vitest';
import type { ChanceRow, Tier } from '@/api/volunteer';
import {
  addItem,
  type EditorItem,
  isDirty,
  isReorderOnly,
  moveItem,
  type PlanLimits,
  planWarnings,
  removeItem,
  setObey,
  staleItems,
  toItem,
  toSaveItems,
  warnedPositions,
} from '@/modules/volunteer/plan/planModel';

const SHANDONG: PlanLimits = { province: '山东', slotLimit: 96, groupMajorLimit: 0, zyType: 1 };
const GROUPS: PlanLimits = { province: '广东', slotLimit: 45, groupMajorLimit: 2, zyType: 2 };

/** An answer row with only the fields the plan model reads. */
const row = (lineId: number, school: string, major: string, tier: Tier | null, groupCode: string | null = null): ChanceRow =>
  ({
    lineId,
    schoolCode: school,
    schoolName: `${school}大学`,
    province: null,
    city: null,
    tags: [] as string[],
    level: null,
    isPublic: null,
    majorName: major,
    groupCode,
    minScore: 600,
    minRank: 1,
    probability: tier ? 0.5 : null,
    probabilityText: null,
    tier,
  }) as ChanceRow;

const build = (rows: ChanceRow[], limits = SHANDONG): EditorItem[] =>
  rows.reduce<EditorItem[]>((list, r) => {
    const res = addItem(list, r, limits);
    if (!res.ok) throw new Error(res.reason);
    return res.items;
  }, []);

describe('plan model', () => {
  it('adds in order and refuses a duplicate (same line, or same school and major) naming its position', () => {
    const list = build([row(1, 'A', '法学', '冲'), row(2, 'B', '医学', '稳')]);
    expect(list.map((i) => i.lineId)).toEqual([1, 2]);
    const again = addItem(list, row(1, 'A', '法学', '冲'), SHANDONG);
    expect(again).toMatchObject({ ok: false, reason: '该志愿已在志愿表第 1 位：A大学 法学' });
    const sameUnit = addItem(list, row(9, 'B', '医学', '稳'), SHANDONG);
    expect(sameUnit).toMatchObject({ ok: false, reason: '该志愿已在志愿表第 2 位：B大学 医学' });
    expect(again.items).toHaveLength(2);
  });

  it('refuses the entry past the slot limit (山东 96)', () => {
    const full = build(Array.from({ length: 96 }, (_, i) => row(i + 1, `S${i}`, '法学', '保')));
    expect(full).toHaveLength(96);
    expect(addItem(full, row(1000, 'X', '法学', '保'), SHANDONG)).toMatchObject({
      ok: false,
      reason: '志愿表已满：山东最多填报 96 个志愿，请先删除一些再添加',
    });
  });

  it('refuses a major beyond the per-group limit and sets 服从调剂 per group', () => {
    const list = build([row(1, 'A', '法学', '冲', '201'), row(2, 'A', '医学', '冲', '201'), row(3, 'A', '化学', '稳', '202')], GROUPS);
    expect(list.every((i) => i.obey === true)).toBe(true);
    expect(addItem(list, row(4, 'A', '物理', '冲', '201'), GROUPS)).toMatchObject({ ok: false, reason: 'A大学 201组 已填 2 个专业，达到每组 2 个的上限' });
    const off = setObey(list, { schoolCode: 'A', groupCode: '201' }, false);
    expect(off.map((i) => i.obey)).toEqual([false, false, true]);
    expect(toSaveItems(off, GROUPS)).toEqual([
      { lineId: 1, obey: false },
      { lineId: 2, obey: false },
      { lineId: 3, obey: true },
    ]);
    // 山东 (专业+院校) sends no 服从调剂.
    expect(toSaveItems(build([row(1, 'A', '法学', '冲')]), SHANDONG)).toEqual([{ lineId: 1 }]);
  });

  it('removes and moves entries', () => {
    const list = build([row(1, 'A', 'a', '冲'), row(2, 'B', 'b', '稳'), row(3, 'C', 'c', '保')]);
    expect(removeItem(list, 2).map((i) => i.lineId)).toEqual([1, 3]);
    expect(moveItem(list, 0, 2).map((i) => i.lineId)).toEqual([2, 3, 1]);
    expect(moveItem(list, 2, 0).map((i) => i.lineId)).toEqual([3, 1, 2]);
    expect(moveItem(list, 0, 5).map((i) => i.lineId)).toEqual([1, 2, 3]);
  });

  it('warns about inverted gradients, too many 冲, no 保 and duplicates; highlights only entry-level ones', () => {
    const inverted = build([row(1, 'A', 'a', '保'), row(2, 'B', 'b', '冲')]);
    const w = planWarnings(inverted, SHANDONG);
    expect(w.map((x) => x.code)).toEqual(['tier-order']);
    expect(w[0].message).toContain('梯度倒挂：第2个志愿（冲）排在更稳妥的第1个志愿（保）之后');
    expect([...warnedPositions(w)]).toEqual([0, 1]);

    const rush = build([row(1, 'A', 'a', '冲'), row(2, 'B', 'b', '冲'), row(3, 'C', 'c', '稳')]);
    const codes = planWarnings(rush, SHANDONG).map((x) => x.code);
    expect(codes).toEqual(['too-many-rush', 'no-safety']);
    expect(warnedPositions(planWarnings(rush, SHANDONG)).size).toBe(0);

    // A plan loaded from elsewhere may hold a duplicate: it is reported with both positions.
    const dup = [...build([row(1, 'A', '法学', '保')]), toItem(row(7, 'A', '法学', '保'))];
    const d = planWarnings(dup, SHANDONG).find((x) => x.code === 'duplicate');
    expect(d).toMatchObject({ positions: [0, 1] });
    expect(d?.message).toBe('第1、第2个志愿重复：A大学 法学');
  });

  it('keeps the year of the figures (and 失效) with an entry, from a table row or a saved item', () => {
    const history = [
      { year: 2026, minScore: 581, minRank: 29348, planCount: null, majorName: null },
      { year: 2025, minScore: 575, minRank: 31207, planCount: null, majorName: null },
    ];
    // A row whose answer names no year: the newest history year is the figures' year.
    const fromRow = toItem({ ...row(1, 'A', '法学', '稳'), minScore: history[0].minScore, minRank: history[0].minRank, years: history });
    expect(fromRow).toMatchObject({ year: history[0].year, minScore: history[0].minScore, minRank: history[0].minRank });
    const named = toItem({ ...row(2, 'B', '医学', '稳'), year: 2026, targetYear: 2027, majorCode: '0A', subjectReq: '物理' });
    expect(named).toMatchObject({ year: 2026, targetYear: 2027, majorCode: '0A', subjectReq: '物理' });
    const saved = toItem({
      ...toItem(row(3, 'C', '化学', '保')),
      sort: 1,
      year: 2024,
      stale: true,
      staleReason: '该志愿不在2026年招生目录中（已停招或更名），请替换',
    });
    expect(saved).toMatchObject({ year: 2024, stale: true, staleReason: '该志愿不在2026年招生目录中（已停招或更名），请替换' });
    expect(staleItems([fromRow, named, saved]).map((i) => i.lineId)).toEqual([3]);
    // Nothing the source lacked is made up.
    expect(toItem(row(4, 'D', '法学', '保'))).not.toHaveProperty('stale');
  });

  it('tells a pure reorder from an edit', () => {
    const saved = build([row(1, 'A', 'a', '冲'), row(2, 'B', 'b', '稳')]);
    const swapped = moveItem(saved, 0, 1);
    expect(isDirty(saved, saved)).toBe(false);
    expect(isDirty(saved, swapped)).toBe(true);
    expect(isReorderOnly(saved, swapped)).toBe(true);
    expect(isReorderOnly(saved, removeItem(saved, 1))).toBe(false);
    const replaced = [saved[0], toItem(row(3, 'C', 'c', '保'))];
    expect(isReorderOnly(saved, replaced)).toBe(false);
  });
});
