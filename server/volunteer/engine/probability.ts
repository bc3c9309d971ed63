import { normalCdf } from './normal.js';
import { equivalentRank } from './rank.js';
import type {
  AdmissionOption,
  EngineSettings,
  Explanation,
  HistoryYear,
  Method,
  OptionFlag,
  ScoredOption,
  StudentProfile,
  Tier,
  TierBands,
  YearUsed,
} from './types.js';

export const DEFAULT_BANDS: TierBands = { rushBelow: 0.4, safeAbove: 0.8 };

export const DEFAULT_SETTINGS: EngineSettings = {
  bands: DEFAULT_BANDS,
  yearWeights: [0.5, 0.3, 0.2],
  sigmaFloorRatio: 0.05,
  scoreSigmaFloor: 5,
  planFactorRange: [0.5, 2],
  unreachableBelow: 0.05,
  wastefulAbove: 0.99,
  wastefulScoreMargin: 20,
};

export function resolveSettings(partial: Partial<EngineSettings> = {}): EngineSettings {
  const s: EngineSettings = { ...DEFAULT_SETTINGS, ...partial, bands: { ...DEFAULT_BANDS, ...partial.bands } };
  if (!(s.bands.rushBelow >= 0 && s.bands.rushBelow <= s.bands.safeAbove && s.bands.safeAbove <= 1)) {
    throw new Error('档位区间不合法：应满足 0 ≤ 冲上限 ≤ 保下限 ≤ 1');
  }
  if (s.yearWeights.length === 0 || s.yearWeights.some((w) => !(w > 0))) throw new Error('年份权重必须为正数');
  return s;
}

/** 冲 when P < rushBelow, 保 when P > safeAbove, otherwise 稳 (both band edges belong to 稳). */
export function tierFor(p: number, bands: TierBands = DEFAULT_BANDS): Tier {
  if (p < bands.rushBelow) return '冲';
  if (p > bands.safeAbove) return '保';
  return '稳';
}

/** Sample standard deviation (n − 1); 0 for fewer than two values. */
function sampleStdDev(values: number[]): number {
  if (values.length < 2) return 0;
  let mean = 0;
  for (const v of values) mean += v;
  mean /= values.length;
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return Math.sqrt(ss / (values.length - 1));
}

/** The student-independent part of the year context: which year is "now", its batch line and cohort. */
export interface ScoringContext {
  year: number;
  batchLine: number | null;
  cohortSize: number | null;
}

export function contextOf(student: StudentProfile, settings: EngineSettings): ScoringContext {
  return {
    year: student.year,
    batchLine: student.batchLine ?? settings.batchLineByYear?.[student.year] ?? null,
    cohortSize: student.cohortSize ?? settings.cohortByYear?.[student.year] ?? null,
  };
}

/** Per-option aggregates that do not depend on the student's score: computed once, reused for every student. */
export interface CompiledOption {
  option: AdmissionOption;
  rank: {
    years: YearUsed[];
    /** Estimated admission rank R (after plan adjustment). */
    estimate: number;
    sigma: number;
    planFactor: number | null;
    /** Average plan count of the years used, when the plan adjustment applied. */
    planAvg: number | null;
  } | null;
  scoreDiff: {
    years: YearUsed[];
    /** Estimated line difference D. */
    estimate: number;
    sigma: number;
    /** No batch line known: a same-year line compared on raw scores. */
    raw: boolean;
  } | null;
  referenceScore: number | null;
}

const rounded = (v: number) => String(Math.round(v));
const signed = (v: number) => (v > 0 ? `+${rounded(v)}` : rounded(v));

/**
 * Compiles an option for a year context.
 *
 * Rank method (位次法): the newest up to three years with a minimum rank, weighted 0.5/0.3/0.2 newest first
 * (renormalised over the years present). Past ranks are brought to this year's cohort with equivalentRank when both
 * cohort sizes are known. With plan counts, R is scaled by plan_now / plan_avg (clamped to planFactorRange).
 * σ = max(sample standard deviation of the years' ranks, sigmaFloorRatio × R).
 *
 * 线差法: each year's line difference minScore − batch line (this year's line too for a same-year line; with no batch
 * line known at all, a same-year line compares raw scores). D is the weighted mean, σ = max(sample standard
 * deviation, scoreSigmaFloor points).
 *
 * Reference score (for the 'wasteful' flag): the weighted line difference re-based on this year's batch line, or the
 * weighted raw minimum score when batch lines are missing.
 */
export function compileOption(option: AdmissionOption, ctx: ScoringContext, settings: EngineSettings): CompiledOption {
  const ranked: HistoryYear[] = [];
  const scored: HistoryYear[] = [];
  const bases: number[] = []; // batch line per entry of scored
  for (const h of option.history) {
    if (h.year > ctx.year) continue;
    if (h.minRank != null && h.minRank > 0) ranked.push(h);
    if (h.minScore == null) continue;
    if (h.year === ctx.year) {
      scored.push(h); // same year: same batch line (or raw scores when it is unknown)
      bases.push(ctx.batchLine ?? 0);
    } else if (ctx.batchLine != null) {
      const line = h.batchLine ?? settings.batchLineByYear?.[h.year];
      if (line != null) {
        scored.push(h);
        bases.push(line);
      }
    }
  }
  const rank = ranked.length > 0 ? compileRank(option, ranked, ctx, settings) : null;
  const scoreDiff = scored.length > 0 ? compileScoreDiff(scored, bases, ctx, settings) : null;

  let referenceScore: number | null = null;
  if (scoreDiff) referenceScore = scoreDiff.estimate + (ctx.batchLine ?? 0);
  else if (rank) {
    let w = 0;
    let sum = 0;
    for (const y of rank.years) {
      if (y.minScore == null) continue;
      w += y.weight;
      sum += y.weight * y.minScore;
    }
    if (w > 0) referenceScore = sum / w;
  }
  return { option, rank, scoreDiff, referenceScore };
}

/** Newest first, at most as many as there are weights. */
function newest<T extends { year: number }>(items: T[], max: number): number[] {
  const order = items.map((_, i) => i);
  if (items.length > 1) order.sort((a, b) => items[b].year - items[a].year);
  return order.length > max ? order.slice(0, max) : order;
}

function weightSum(weights: readonly number[], n: number): number {
  let sum = 0;
  for (let i = 0; i < n; i++) sum += weights[i];
  return sum;
}

function compileRank(option: AdmissionOption, ranked: HistoryYear[], ctx: ScoringContext, settings: EngineSettings): CompiledOption['rank'] {
  const weights = settings.yearWeights;
  const order = newest(ranked, weights.length);
  const total = weightSum(weights, order.length);
  const years: YearUsed[] = [];
  const values: number[] = [];
  let base = 0;
  let plans = 0;
  let planSum = 0;
  for (let i = 0; i < order.length; i++) {
    const h = ranked[order[i]];
    const minRank = h.minRank as number;
    const cohortThen = h.cohortSize ?? settings.cohortByYear?.[h.year] ?? null;
    const scaledRank = ctx.cohortSize && cohortThen && h.year !== ctx.year ? equivalentRank(minRank, ctx.cohortSize, cohortThen) : minRank;
    const weight = weights[i] / total;
    years.push({ year: h.year, weight, minScore: h.minScore, minRank, scaledRank });
    values.push(scaledRank);
    base += weight * scaledRank;
    if (h.planCount != null && h.planCount > 0) {
      plans++;
      planSum += h.planCount;
    }
  }
  let planFactor: number | null = null;
  let planAvg: number | null = null;
  if (option.planNow != null && option.planNow > 0 && plans > 0) {
    planAvg = planSum / plans;
    const [lo, hi] = settings.planFactorRange;
    planFactor = Math.min(hi, Math.max(lo, option.planNow / planAvg));
  }
  const estimate = base * (planFactor ?? 1);
  const sigma = Math.max(sampleStdDev(values), settings.sigmaFloorRatio * estimate);
  return { years, estimate, sigma, planFactor, planAvg };
}

function compileScoreDiff(scored: HistoryYear[], bases: number[], ctx: ScoringContext, settings: EngineSettings): CompiledOption['scoreDiff'] {
  const weights = settings.yearWeights;
  const order = newest(scored, weights.length);
  const total = weightSum(weights, order.length);
  const raw = ctx.batchLine == null;
  const years: YearUsed[] = [];
  const values: number[] = [];
  let estimate = 0;
  for (let i = 0; i < order.length; i++) {
    const h = scored[order[i]];
    const base = bases[order[i]];
    const lineDiff = (h.minScore as number) - base;
    const weight = weights[i] / total;
    years.push({ year: h.year, weight, minScore: h.minScore, minRank: h.minRank, batchLine: raw ? null : base, lineDiff });
    values.push(lineDiff);
    estimate += weight * lineDiff;
  }
  const sigma = Math.max(sampleStdDev(values), settings.scoreSigmaFloor);
  return { years, estimate, sigma, raw };
}

/** The years part of a rank-method line: 2025年最低位次 12345（1年数据），估计录取位次 12345，σ=617. */
function rankText(c: CompiledOption): string {
  const r = c.rank as NonNullable<CompiledOption['rank']>;
  const parts = r.years.map(
    (y) => `${y.year}年最低位次 ${rounded(y.minRank as number)}${y.scaledRank !== y.minRank ? `（折算 ${rounded(y.scaledRank as number)}）` : ''}`,
  );
  const plan =
    r.planFactor == null ? '' : `（今年计划 ${c.option.planNow}，往年平均 ${Number((r.planAvg as number).toFixed(1))}，×${r.planFactor.toFixed(2)}）`;
  return `${parts.join('、')}（${r.years.length}年数据），估计录取位次 ${rounded(r.estimate)}${plan}，σ=${rounded(r.sigma)}`;
}

/** The years part of a 线差法 line: 2024年线差 +120（560−440）（1年数据），估计线差 +120，σ=5.0. */
function scoreDiffText(c: CompiledOption): string {
  const d = c.scoreDiff as NonNullable<CompiledOption['scoreDiff']>;
  const parts = d.years.map((y) =>
    d.raw ? `${y.year}年最低分 ${y.minScore}` : `${y.year}年线差 ${signed(y.lineDiff as number)}（${y.minScore}−${y.batchLine}）`,
  );
  const est = d.raw ? `最低分 ${rounded(d.estimate)}` : `线差 ${signed(d.estimate)}`;
  return `${parts.join('、')}（${d.years.length}年数据），估计${est}，σ=${d.sigma.toFixed(1)}`;
}

function percent(p: number): string {
  return `${Math.min(99.99, Math.max(0.01, p * 100)).toFixed(2)}%`;
}

const NO_FLAGS: readonly OptionFlag[] = Object.freeze([]);
const UNREACHABLE: readonly OptionFlag[] = Object.freeze(['unreachable']);
const WASTEFUL: readonly OptionFlag[] = Object.freeze(['wasteful']);

/**
 * An Explanation whose Chinese line is built on first read (scoring every line for a student allocates no strings);
 * toJSON includes it, so serialised results carry the text.
 */
class LazyExplanation implements Explanation {
  private line: string | null = null;
  constructor(
    readonly method: Method,
    readonly years: YearUsed[],
    readonly estimate: number | null,
    readonly sigma: number | null,
    readonly student: number | null,
    readonly probability: number | null,
    readonly tier: Tier | null,
    readonly planFactor: number | null,
    readonly referenceScore: number | null,
    readonly flags: readonly OptionFlag[],
    private readonly compiled: CompiledOption,
    private readonly score: number,
  ) {}

  get text(): string {
    if (this.line == null) this.line = this.build();
    return this.line;
  }

  private build(): string {
    const c = this.compiled;
    if (this.probability == null || this.student == null) {
      return c.rank ? '缺少考生位次，且无可用的历年分数与批次线，无法估计录取概率' : '缺少历年录取位次和分数，无法估计录取概率';
    }
    let text =
      this.method === 'rank'
        ? `按位次法：${rankText(c)}，你的位次 ${rounded(this.student)}`
        : `按线差法：${scoreDiffText(c)}，你的${c.scoreDiff?.raw ? `分数 ${this.score}` : `线差 ${signed(this.student)}`}`;
    text += `，录取概率 ${percent(this.probability)}，${this.tier}`;
    if (this.flags.includes('unreachable')) text += '（几乎无望，不建议填报）';
    if (this.flags.includes('wasteful')) text += `（分数高出约 ${rounded(this.score - (this.referenceScore as number))} 分，可能浪费分数）`;
    return text;
  }

  toJSON(): Explanation {
    const { method, years, estimate, sigma, student, probability, tier, planFactor, referenceScore, flags, text } = this;
    return { method, years, estimate, sigma, student, probability, tier, planFactor, referenceScore, flags, text };
  }
}

/**
 * A scored option: one object per option and nothing else allocated while scoring. The explanation (and its Chinese
 * line) is a getter built on first read; toJSON includes it. Object spread ({...scored}) does not copy getters, so
 * read `explanation` explicitly (or serialise) when copying a result.
 */
class Scored implements ScoredOption {
  readonly option: AdmissionOption;
  readonly estimatedRank: number | null;
  readonly referenceScore: number | null;
  private why: LazyExplanation | null = null;
  constructor(
    private readonly compiled: CompiledOption,
    private readonly score: number,
    readonly method: Method,
    readonly probability: number | null,
    readonly tier: Tier | null,
    readonly flags: readonly OptionFlag[],
    /** Rank method: R; 线差法: the estimated line difference. */
    private readonly estimate: number | null,
    private readonly studentValue: number | null,
  ) {
    this.option = compiled.option;
    this.estimatedRank = method === 'rank' ? estimate : null;
    this.referenceScore = compiled.referenceScore;
  }

  get explanation(): Explanation {
    if (this.why == null) {
      const c = this.compiled;
      const part = this.method === 'rank' ? c.rank : this.method === 'score-diff' ? c.scoreDiff : null;
      this.why = new LazyExplanation(
        this.method,
        part?.years ?? [],
        this.estimate,
        part?.sigma ?? null,
        this.studentValue,
        this.probability,
        this.tier,
        this.method === 'rank' ? (c.rank?.planFactor ?? null) : null,
        c.referenceScore,
        this.flags,
        c,
        this.score,
      );
    }
    return this.why;
  }

  toJSON(): ScoredOption {
    const { option, method, probability, tier, flags, estimatedRank, referenceScore, explanation } = this;
    return { option, method, probability, tier, flags, estimatedRank, referenceScore, explanation };
  }
}

/** Scores a compiled option for one student. */
export function scoreCompiled(c: CompiledOption, student: StudentProfile, ctx: ScoringContext, settings: EngineSettings): ScoredOption {
  let method: Method = 'none';
  let probability: number | null = null;
  let estimate: number | null = null;
  let studentValue: number | null = null;
  if (c.rank && student.rank != null && student.rank > 0) {
    method = 'rank';
    estimate = c.rank.estimate;
    studentValue = student.rank;
    probability = normalCdf((estimate - studentValue) / c.rank.sigma);
  } else if (c.scoreDiff) {
    method = 'score-diff';
    estimate = c.scoreDiff.estimate;
    studentValue = student.score - (ctx.batchLine ?? 0);
    probability = normalCdf((studentValue - estimate) / c.scoreDiff.sigma);
  }

  let tier: Tier | null = null;
  let flags = NO_FLAGS;
  if (probability != null) {
    tier = tierFor(probability, settings.bands);
    if (probability < settings.unreachableBelow) flags = UNREACHABLE;
    else if (probability > settings.wastefulAbove && c.referenceScore != null && student.score - c.referenceScore >= settings.wastefulScoreMargin) {
      flags = WASTEFUL;
    }
  }
  return new Scored(c, student.score, method, probability, tier, flags, estimate, studentValue);
}

/** Scores one option for one student (compiles it first; for many options use scoreAll). */
export function scoreOption(option: AdmissionOption, student: StudentProfile, settings: Partial<EngineSettings> = {}): ScoredOption {
  const s = resolveSettings(settings);
  const ctx = contextOf(student, s);
  return scoreCompiled(compileOption(option, ctx, s), student, ctx, s);
}
