import { fail } from '../http/envelope.js';
import { type Catalogue, type CatalogueEntry, type RankedStudent, studentRankOf } from './catalogue.js';
import { largestMoveAt, VOLATILE_RATIO } from './cautions.js';
import { listParam } from './common.js';
import type { ScoredOption, Tier } from './engine/index.js';
import { OPTIMISE_DEFAULTS, type OptCandidate, optimisePlan } from './engine/optimise.js';
import { simChoiceOf } from './engine/simulate.js';
import { fittedModelOf, liveCatalogueOf } from './liveModel.js';
import { classifyMajor } from './majorClass.js';
import type { PlanSimulationView } from './planSimulation.js';
import { simulateStudentPlan } from './planSimulation.js';

/**
 * 智能填报 that optimises where the student lands (issue 24 item 2; the optimiser is engine/optimise.ts). This file
 * turns a request into the optimiser's candidates — value from selectivity and the family's preferred 专业类, the
 * 冲 floor, school cap, locked choices — runs it, checks the result with the plan simulation (10,000 years, the
 * report's own) against the risk target, and explains it in Chinese.
 */

export interface LandingOptions {
  /** P(滑档) the plan must stay under (0–0.05, default 0.005). */
  slideTarget: number;
  /** No line under this 录取概率 (0.05–0.5, default 0.15). */
  chongFloor: number;
  /** At most this many lines of one school (1–20, default 3). */
  maxPerSchool: number;
  /** Preferred 专业类 / 门类 codes (本科专业目录), and whether only they are filled. */
  majorClasses: string[];
  majorClassOnly: boolean;
  /** 专业类 / 门类 codes never filled. */
  avoidClasses: string[];
  /** Choices kept in their places: catalogue line id and 1-based place. */
  locked: Array<{ lineId: number; sort: number }>;
}

/** How much a preferred 专业类 is worth, in log-rank units: such a line is wanted like one 1.4× as selective. */
export const PREFERRED_CLASS_BONUS = Math.log(1.4);
/** Share of last year's lines the next year still offers (measured: 14–18 % of choices were dead in the replay of 2023–2026). */
export const OFFERED_SHARE = 0.85;

/**
 * What the estimate of a line is worth less when its own history jumped (a year-to-year move of ×1.5 or more, the
 * 位次波动大 caution): the log of that move (a line that once doubled is worth as much as one half as selective).
 * 投档 lands on such a line mostly in the years it became easy, so its estimate overstates where the student lands.
 * (cautions.ts largestMove.) Measured in the replay of 2023–2026 (docs/benchmarks.md); a like penalty for lines of 1–2
 * places was tried and dropped (it landed worse in 2024).
 */
function unreliability(e: CatalogueEntry): number {
  const { ratio } = largestMoveAt(e);
  return ratio >= VOLATILE_RATIO ? Math.log(ratio) : 0;
}

function numberIn(v: unknown, lo: number, hi: number, fallback: number, what: string): number {
  if (v == null || v === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < lo || n > hi) throw fail(`${what}必须在 ${lo} 到 ${hi} 之间`);
  return n;
}

/** The landing options of a request (Chinese errors for bad input; nothing is changed by this request anyway). */
export function landingOptionsOf(input: Record<string, unknown>): LandingOptions {
  const slideTarget = numberIn(input.slideTarget, 0, 0.05, 0.005, '滑档风险上限');
  const chongFloor = numberIn(input.chongFloor, 0.05, 0.5, OPTIMISE_DEFAULTS.chongFloor, '冲刺志愿的最低录取概率');
  const maxPerSchool = numberIn(input.maxPerSchool, 1, 20, OPTIMISE_DEFAULTS.maxPerSchool, '每所院校的志愿数上限');
  if (!Number.isInteger(maxPerSchool)) throw fail('每所院校的志愿数上限必须是 1 到 20 之间的整数');
  const codes = (v: unknown, what: string) => {
    const list = listParam(v);
    const bad = list.find((c) => !/^\d{2}(\d{2})?$/.test(c));
    if (bad) throw fail(`${what}代码不正确：${bad}（门类 2 位、专业类 4 位数字）`);
    return list;
  };
  const locked: LandingOptions['locked'] = [];
  if (input.locked != null && input.locked !== '') {
    if (!Array.isArray(input.locked)) throw fail('锁定的志愿格式不正确');
    for (const l of input.locked as unknown[]) {
      const o = (l ?? {}) as Record<string, unknown>;
      const lineId = Number(o.lineId);
      const sort = Number(o.sort);
      if (!Number.isInteger(lineId) || lineId <= 0 || !Number.isInteger(sort) || sort < 1) throw fail('锁定的志愿需要志愿 ID 和位置（从 1 开始）');
      if (locked.some((x) => x.lineId === lineId)) throw fail('同一个志愿不能锁定两次');
      locked.push({ lineId, sort });
    }
  }
  const majorClassOnly = input.majorClassOnly === true || input.majorClassOnly === 1 || input.majorClassOnly === '1' || input.majorClassOnly === 'true';
  return {
    slideTarget,
    chongFloor,
    maxPerSchool,
    majorClasses: codes(input.majorClass, '专业类'),
    majorClassOnly,
    avoidClasses: codes(input.avoidClass, '回避的专业类'),
    locked,
  };
}

/** Whether a line's major falls in one of the codes (a 2-digit 门类 or a 4-digit 专业类). */
function classMatcher(codes: readonly string[]): (majorName: string | null) => boolean {
  if (!codes.length) return () => false;
  return (name) => {
    const c = name ? classifyMajor(name) : null;
    if (!c) return false;
    return codes.some((code) => (code.length === 2 ? c.disciplineCode === code : c.classCode === code));
  };
}

export interface LandingPick {
  idx: number;
  scored: ScoredOption;
  tier: Tier;
  locked: boolean;
  /** In the safety tail: it stops 滑档 in simulated years where nothing above it admits. */
  safety: boolean;
  preferred: boolean;
}

export interface LandingResult {
  picks: LandingPick[];
  simulation: PlanSimulationView | null;
  explanation: string[];
  notes: string[];
}

const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/**
 * The landing-optimised plan over `candidates` (catalogue indexes the request's filters let through, hardest first)
 * for a stored student. Lines the model cannot estimate are left out (they cannot be simulated), and said so.
 */
/** Whether the landing can be optimised: the province has a fitted model and the student a rank. */
export function landingPossible(cat: Catalogue, student: RankedStudent): boolean {
  const rank = studentRankOf(cat, student);
  return fittedModelOf(cat.province, cat.year) != null && liveCatalogueOf(cat) != null && rank != null && rank > 0;
}

export function landingAutofill(
  cat: Catalogue,
  student: RankedStudent,
  scored: readonly ScoredOption[],
  candidates: readonly number[],
  o: LandingOptions,
): LandingResult {
  const model = fittedModelOf(cat.province, cat.year);
  const live = liveCatalogueOf(cat);
  const rank = studentRankOf(cat, student);
  if (!model || !live || rank == null || rank <= 0) {
    throw fail('缺少考生位次或该省的录取模型，无法按录取去向优化；请改用「按冲稳保数量」填报');
  }
  const slots = cat.rules.slotLimit;
  const preferred = classMatcher(o.majorClasses);
  const avoided = classMatcher(o.avoidClasses);
  const lockedIdx = new Map<number, number>();
  for (const l of o.locked) {
    const idx = cat.byLineId.get(l.lineId);
    if (idx == null) throw fail(`锁定的志愿（ID ${l.lineId}）不在${cat.year}年招生目录中，请先替换`);
    if (l.sort > slots) throw fail(`锁定的位置不能超过第 ${slots} 个`);
    lockedIdx.set(idx, l.sort - 1);
  }
  const cands: OptCandidate[] = [];
  let avoidedCount = 0;
  let notPreferred = 0;
  let unestimated = 0;
  let belowFloor = 0;
  const isPreferred = new Uint8Array(cat.entries.length);
  const consider = (idx: number, isLocked: boolean) => {
    const e = cat.entries[idx];
    const s = scored[idx];
    const est = live.estimates[idx];
    if (!est || s.probability == null) {
      if (!isLocked) unestimated++;
      return;
    }
    // Below the floor: never chosen (optimise.ts counts it); most of the catalogue for a strong student, so no object.
    if (!isLocked && s.probability < o.chongFloor) {
      belowFloor++;
      return;
    }
    if (!isLocked && avoided(e.majorName)) {
      avoidedCount++;
      return;
    }
    const pref = preferred(e.majorName);
    if (!isLocked && o.majorClassOnly && o.majorClasses.length && !pref) {
      notPreferred++;
      return;
    }
    if (pref) isPreferred[idx] = 1;
    cands.push({
      key: idx,
      mu: est.estimate.mu,
      sim: () => simChoiceOf(model, est, cat.options[idx], s.tier ?? '保'),
      value: -est.estimate.mu + (pref ? PREFERRED_CLASS_BONUS : 0) - unreliability(e),
      probability: s.probability,
      school: e.school.schoolCode,
      programme: e.key,
    });
  };
  const seen = new Set<number>();
  for (const idx of candidates) {
    seen.add(idx);
    consider(idx, lockedIdx.has(idx));
  }
  for (const idx of lockedIdx.keys()) if (!seen.has(idx)) consider(idx, true);
  const result = optimisePlan(model, cands, rank, {
    slots,
    chongFloor: o.chongFloor,
    maxPerSchool: o.maxPerSchool,
    locked: [...lockedIdx].filter(([idx]) => cands.some((c) => c.key === idx)).map(([key, position]) => ({ key, position })),
    offered: OFFERED_SHARE,
  });
  const picks: LandingPick[] = result.order.map((idx) => ({
    idx,
    scored: scored[idx],
    tier: scored[idx].tier ?? '保',
    locked: lockedIdx.has(idx),
    safety: result.safety.has(idx),
    preferred: isPreferred[idx] === 1,
  }));
  // Locked lines the model cannot estimate still keep their places.
  for (const [idx, position] of lockedIdx) {
    if (picks.some((p) => p.idx === idx)) continue;
    picks.splice(Math.min(position, picks.length), 0, {
      idx,
      scored: scored[idx],
      tier: scored[idx].tier ?? '保',
      locked: true,
      safety: false,
      preferred: false,
    });
  }
  const simOf = (list: LandingPick[]) =>
    simulateStudentPlan(
      cat,
      student,
      list.map((p, n) => ({ sort: n + 1, lineId: cat.entries[p.idx].lineId, tier: p.tier })),
    );
  let simulation = picks.length ? simOf(picks) : null;
  // The risk target on the report's own simulation: add the safest unused lines at the end while it is missed.
  let added = 0;
  if (simulation && simulation.slide > o.slideTarget) {
    const used = new Set(picks.map((p) => p.idx));
    const perSchool = new Map<string, number>();
    for (const p of picks) perSchool.set(cat.entries[p.idx].school.schoolCode, (perSchool.get(cat.entries[p.idx].school.schoolCode) ?? 0) + 1);
    const safest = cands.filter((c) => !used.has(c.key) && c.probability >= o.chongFloor).sort((a, b) => b.probability - a.probability || b.value - a.value);
    for (const c of safest) {
      if (!simulation || simulation.slide <= o.slideTarget || added >= 12) break;
      if ((perSchool.get(c.school) ?? 0) >= o.maxPerSchool) continue;
      if (picks.length >= slots) {
        // Drop the last non-locked, non-safety choice to make room.
        let k = picks.length - 1;
        while (k >= 0 && (picks[k].locked || picks[k].safety)) k--;
        if (k < 0) break;
        picks.splice(k, 1);
      }
      picks.push({
        idx: c.key,
        scored: scored[c.key],
        tier: scored[c.key].tier ?? '保',
        locked: false,
        safety: true,
        preferred: isPreferred[c.key] === 1,
      });
      perSchool.set(c.school, (perSchool.get(c.school) ?? 0) + 1);
      added++;
      simulation = simOf(picks);
    }
  }
  const year = cat.targetYear;
  const safetyCount = picks.filter((p) => p.safety).length;
  const explanation = [
    `按录取去向优化：在模拟的 ${result.draws.toLocaleString('en-US')} 个${year}年录取年份中选出 ${picks.length} 个志愿，使考生最终被录取的院校专业尽量好${
      o.majorClasses.length ? '，所选专业类的志愿按“位次好 1.4 倍”计算优先' : ''
    }。`,
    '排序：越想去的排在越前（越难进、或属于所选专业类）；平行投档按顺序检索，前面的志愿录取了就不再看后面的，所以顺序就是意愿。',
    `冲刺下限：录取概率低于 ${Math.round(o.chongFloor * 100)}% 的不填${belowFloor + result.belowFloor ? `（${belowFloor + result.belowFloor} 个）` : ''}；每所院校最多 ${o.maxPerSchool} 个，同一专业不重复。`,
    `末尾 ${safetyCount} 个保底志愿防止在难的年份滑档（也考虑约 ${Math.round((1 - OFFERED_SHARE) * 100)}% 的专业次年不再招生）${
      simulation
        ? `：按${year}年模拟 ${simulation.draws.toLocaleString('en-US')} 次平行投档，滑档概率 ${pct(simulation.slide)}（目标不超过 ${pct(o.slideTarget)}）`
        : ''
    }。`,
    ...(simulation
      ? [
          `录取落在冲 ${pct(simulation.byTier.冲)}、稳 ${pct(simulation.byTier.稳)}、保 ${pct(simulation.byTier.保)}；平均落在第 ${simulation.expectedPosition?.toFixed(1) ?? '—'} 个志愿。`,
        ]
      : []),
    ...(o.locked.length ? [`${o.locked.length} 个锁定的志愿保持原位，其余志愿重新优化。`] : []),
  ];
  const notes: string[] = [];
  if (unestimated) notes.push(`${unestimated} 个志愿缺少历年数据、无法模拟，未参与按录取去向优化`);
  if (avoidedCount) notes.push(`按回避的专业类排除了 ${avoidedCount} 个志愿`);
  if (notPreferred) notes.push(`只填所选专业类：排除了其他专业类的 ${notPreferred} 个志愿`);
  if (picks.length < slots)
    notes.push(`符合条件且录取概率不低于 ${Math.round(o.chongFloor * 100)}% 的志愿只选出 ${picks.length} 个（上限 ${slots}，仍缺 ${slots - picks.length} 个）`);
  if (simulation && simulation.slide > o.slideTarget)
    notes.push(`滑档概率 ${pct(simulation.slide)} 仍高于目标 ${pct(o.slideTarget)}：可放宽地区、院校或专业条件，增加更稳妥的志愿`);
  return { picks, simulation, explanation, notes };
}
