import { describe, expect, it } from 'vitest';
import type { PlanItem } from '@/api/volunteer';
import { addItem, type EditorItem, fromSaved, isDirty, isReorderOnly, type PlanLimits, setMajors, toSaveItems } from '@/modules/volunteer/plan/planModel';

const HUBEI: PlanLimits = { province: '湖北', slotLimit: 3, groupMajorLimit: 6, zyType: 2 };
const SHANDONG: PlanLimits = { province: '山东', slotLimit: 96, groupMajorLimit: 0, zyType: 1 };

/** A 院校专业组 entry as the group board builds it: the whole group, its majors inside. */
const group = (lineId: number, school: string, groupCode: string, majors: string[], obey: boolean): EditorItem => ({
  lineId,
  schoolCode: school,
  schoolName: `${school}大学`,
  majorName: majors.length ? majors.join('、') : null,
  groupCode,
  province: null,
  city: null,
  tags: [],
  minScore: 600,
  minRank: 10000,
  tier: '稳',
  probability: 0.5,
  probabilityText: '50.00%',
  obey,
  majors,
});

const add = (items: EditorItem[], item: EditorItem, limits = HUBEI) => {
  const r = addItem(items, item, limits);
  if (!r.ok) throw new Error(r.reason);
  return r.items;
};

describe('plan model for 院校专业组 entries', () => {
  it('keeps each group once with its own 服从调剂, and refuses a full plan or too many majors', () => {
    let list = add([], group(1, 'A', '01', ['法学', '经济学'], true));
    list = add(list, group(2, 'A', '02', ['临床医学'], false));
    expect(list.map((i) => i.obey)).toEqual([true, false]);
    // The same group again, even with other majors, is a duplicate.
    expect(addItem(list, group(1, 'A', '01', ['哲学'], true), HUBEI)).toMatchObject({ ok: false, reason: '该志愿已在志愿表第 1 位：A大学 第01组' });
    expect(addItem(list, group(9, 'B', '01', ['一', '二', '三', '四', '五', '六', '七'], true), HUBEI)).toMatchObject({
      ok: false,
      reason: '每个院校专业组最多填报 6 个专业，当前 7 个',
    });
    list = add(list, group(3, 'B', '01', [], true));
    expect(addItem(list, group(4, 'C', '01', ['法学'], true), HUBEI)).toMatchObject({
      ok: false,
      reason: '志愿表已满：湖北最多填报 3 个志愿，请先删除一些再添加',
    });
  });

  it('saves majors and 服从调剂 per group; a changed major makes the plan dirty and is not a mere reorder', () => {
    const saved = add(add([], group(1, 'A', '01', ['法学', '经济学'], true)), group(2, 'B', '03', ['临床医学'], false));
    expect(toSaveItems(saved, HUBEI)).toEqual([
      { lineId: 1, obey: true, majors: ['法学', '经济学'] },
      { lineId: 2, obey: false, majors: ['临床医学'] },
    ]);
    const edited = setMajors(saved, 1, ['经济学', '法学']);
    expect(edited[0]).toMatchObject({ majors: ['经济学', '法学'], majorName: '经济学、法学' });
    expect(isDirty(saved, edited)).toBe(true);
    expect(isReorderOnly(saved, edited)).toBe(false);
    expect(isReorderOnly(saved, [saved[1], saved[0]])).toBe(true);
    // 山东 entries never send majors or 服从调剂.
    expect(toSaveItems(saved, SHANDONG)).toEqual([{ lineId: 1 }, { lineId: 2 }]);
  });

  it('reads the majors of a saved group back from majorName when the answer has no majors list', () => {
    // As save / saveSort answer it: every PlanItem field, the majors only inside majorName.
    const { majors: _none, ...entry } = group(5, 'D', '02', [], true);
    const facts = { stale: false, staleReason: null, year: 2025, majorCode: null, subjectReq: null, ownership: null };
    const stored: PlanItem = { ...entry, ...facts, majorName: '计算机类、软件工程', sort: 1 };
    expect(fromSaved(stored, HUBEI).majors).toEqual(['计算机类', '软件工程']);
    expect(fromSaved({ ...stored, majorName: null }, HUBEI).majors).toEqual([]);
    expect(fromSaved({ ...stored, groupCode: null, majorName: '法学' }, SHANDONG).majors).toBeUndefined();
  });
});
