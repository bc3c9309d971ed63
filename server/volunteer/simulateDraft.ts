import type { DraftChoice, PlanSimulationView } from '../../common/volunteer/planSimulation.js';
import { fail } from '../http/envelope.js';
import type { Catalogue } from './catalogue.js';
import type { Actor, Db } from './common.js';
import { TIERS, type Tier } from './engine/index.js';
import { resolveSubject } from './filling.js';
import { simulateStudentPlan } from './planSimulation.js';

/**
 * The plan editor's unsaved plan simulated (issue 24, item 3): the same simulation the report runs on the saved plan
 * (planSimulation.ts), asked on every edit so the expert sees P(滑档) and where the student lands while reordering.
 * Only reads: nothing is stored.
 *
 * Input `{ studentId, items: [{ sort, lineId, tier }] }`. The student is loaded in the caller's store scope
 * (resolveSubject → loadStudent), so another store's student is refused as not found. A line must be in the
 * province's catalogue or a 失效 line of it (a saved plan may still hold one: it is counted as never admitting, as
 * the report does). `tier` only labels the 冲/稳/保 split of the answer — P(录取) and the landing shares do not depend
 * on it — so the tier the editor shows is taken as given.
 */

export interface DraftAnswer {
  /** Null when the simulation cannot run: the province has no fitted model, or the student has no rank. */
  view: PlanSimulationView | null;
  msg: string;
}

const isTier = (v: unknown): v is Tier => typeof v === 'string' && (TIERS as readonly string[]).includes(v);
const positiveInt = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
};

/** The draft's choices in plan order, or the first problem with them (Chinese, naming the choice). */
export function draftChoices(cat: Catalogue, raw: unknown): DraftChoice[] {
  if (raw == null) throw fail('请提供要模拟的志愿列表');
  if (!Array.isArray(raw)) throw fail('志愿列表格式不正确，应为数组');
  if (raw.length === 0) throw fail('志愿表为空，无法模拟');
  const limit = cat.rules.slotLimit;
  if (raw.length > limit) throw fail(`志愿数量超过上限：${cat.province}最多填报 ${limit} 个志愿，当前 ${raw.length} 个`);
  const bySort = new Map<number, number>();
  const byLine = new Map<number, number>();
  const byProgramme = new Map<string, number>();
  const out = raw.map((it, i): DraftChoice => {
    const n = i + 1;
    if (typeof it !== 'object' || it === null || Array.isArray(it)) throw fail(`第${n}个志愿格式不正确，应为 { sort, lineId, tier }`);
    const o = it as { sort?: unknown; lineId?: unknown; tier?: unknown };
    const sort = o.sort == null || o.sort === '' ? n : positiveInt(o.sort);
    if (sort == null) throw fail(`第${n}个志愿的序号不正确，应为正整数`);
    const seenSort = bySort.get(sort);
    if (seenSort != null) throw fail(`第${n}个志愿与第${seenSort}个志愿的序号重复（${sort}）`);
    bySort.set(sort, n);
    const lineId = positiveInt(o.lineId);
    const idx = lineId != null ? cat.byLineId.get(lineId) : undefined;
    if (lineId == null || (idx == null && !cat.retired.has(lineId))) {
      throw fail(`第${n}个志愿不存在或不属于${cat.province}的招生数据（lineId ${o.lineId == null || o.lineId === '' ? '空' : String(o.lineId)}）`);
    }
    const seenLine = byLine.get(lineId);
    if (seenLine != null) throw fail(`第${n}个志愿与第${seenLine}个志愿重复`);
    byLine.set(lineId, n);
    if (idx != null) {
      // One programme once, by its identity across years, as saving refuses it (plans.ts resolveItems).
      const e = cat.entries[idx];
      const first = byProgramme.get(e.key);
      if (first != null) throw fail(`第${n}个志愿与第${first}个志愿重复：${e.school.name} ${e.majorName ?? ''}`.trim());
      byProgramme.set(e.key, n);
    }
    if (o.tier != null && o.tier !== '' && !isTier(o.tier)) throw fail(`第${n}个志愿的梯度不正确，应为冲、稳或保`);
    return { sort, lineId, tier: isTier(o.tier) ? o.tier : null };
  });
  // Parallel 投档 goes down the plan by its order numbers.
  return out.sort((a, b) => a.sort - b.sort);
}

/** POST /appv2/api/Filling/simulatePlan. */
export async function simulateDraft(db: Db, actor: Actor, p: Record<string, unknown>, draws = 10_000): Promise<DraftAnswer> {
  if (p.studentId == null || p.studentId === '') throw fail('请选择学生');
  const { cat, subject } = await resolveSubject(db, actor, { studentId: p.studentId });
  if (cat.rules.zyType === 2) throw fail('院校专业组志愿暂不支持整体模拟');
  const student = subject.student;
  if (!student) throw fail('请选择学生');
  const items = draftChoices(cat, p.items);
  const view = simulateStudentPlan(cat, student, items, draws);
  if (view) return { view, msg: '模拟完成' };
  return { view: null, msg: subject.rank == null ? '该学生的位次未知，无法模拟整体录取情况' : `暂无${cat.province}的录取模型，无法模拟整体录取情况` };
}
