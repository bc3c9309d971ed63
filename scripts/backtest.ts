/**
 * npm run backtest [-- --write-model] [-- --variants]: the acceptance model measured on Shandong's real lines
 * (docs/volunteer-model.md).
 *
 * The years are data: every year with a 投档表 (toudang-Y.csv) and an 一分一段表 (rank-table-Y.csv) in the data folder
 * is loaded, and every year with at least two earlier years is a target. For each target Y: fit on the years up to
 * Y−1 only, predict year Y, and compare with what happened. The students are every 3rd score from 400 to 697 points
 * of year Y's 一分一段 table (their rank is that year's cumulative count); each student is paired with every line of
 * year Y that has a numeric min rank and at least one earlier year; the outcome is "admitted" when the student's rank
 * is at or better than the line's min rank. Lines are joined across years by their identity (engine/identity.ts:
 * school + normalised major name, never 专业代号); an identity printed twice in one school and year stays two lines,
 * told apart by that year's 专业代号. A year whose table has no planCount column (2026) has no plan counts.
 * Printed for the fitted model and for the engine as it was (weights 0.5/0.3/0.2, σ = max(sd, 5 % of R), plan
 * factor R × plan_now / plan_avg): a reliability table (10 probability bins), the expected calibration error
 * overall, over the predictions between 10 % and 90 % alone, and in student rank bands, and the Brier score — per
 * target year and pooled over all target years.
 * --write-model writes, for every as-of year Y with at least two earlier years, the model fitted on the lines of the
 * years ≤ Y only (targets up to Y): server/volunteer/engine/model-shandong-<Y>.json (server/volunteer/modelFiles.ts
 * reads them; a server with ADMISSION_AS_OF=Y uses the newest as-of year ≤ Y).
 * --variants also prints the summary of each fit choice tried (VARIANTS below), fitted model only.
 * Every run also prints model v3 (issue 24; V3_VARIANTS, engine/calibrated.ts fitV3) against the current model: each
 * variant layered on the same year's current fit, with ECE between 10 % and 90 %, Brier and the lines' interval
 * coverage (PIT) per target year and pooled, the issue's targets, pooled reliability and PIT deciles. A line's
 * subject-requirement group is that of its identity in the newest 投档表 printing 选考科目要求 (2026), for every year.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { parseCsv } from '../server/db/seed/admission.js';
import {
  bandLabel,
  bandOf,
  DEFAULT_FIT,
  estimate,
  type FitOptions,
  type FittedModel,
  fitModel,
  fitSharedShifts,
  fitV3,
  type LineInfo,
  lineCell,
  PLAN_CLASS_UPPER,
  RANK_BANDS,
  REQUIREMENT_GROUPS,
  requirementGroup,
  survival,
  UNKNOWN_GROUP,
  type V3Options,
  type YearPoint,
} from '../server/volunteer/engine/calibrated.js';
import { lineIdentity } from '../server/volunteer/engine/identity.js';
import { type AdmissionOption, scoreAll } from '../server/volunteer/engine/index.js';
import { majorCategory } from '../server/volunteer/engine/simulate.js';

const DIR = new URL('../server/db/seed/data/gaokao-shandong/', import.meta.url);
const ENGINE_DIR = new URL('../server/volunteer/engine/', import.meta.url);
const STUDENT_BANDS = [10_000, 50_000, 150_000];
/** The fit choices compared by --variants (engine/calibrated.ts FitOptions); the first is the kept default. */
const VARIANTS: Array<{ label: string; options: FitOptions }> = [
  { label: 'kept: zero-mean year shock, spread √mean(move²), floor 0.04', options: DEFAULT_FIT },
  { label: 'before: shock around the mean move (drift), sd, floor 0.04', options: { select: 'line', shock: 'sd' } },
  { label: 'drift; weights and cohort power chosen with the mean move only removed', options: { select: 'total', shock: 'sd' } },
  { label: 'the same, predictive spread sd × √(1 + 1/n)', options: { select: 'total', shock: 'predictive' } },
  { label: 'zero-mean shock; chosen with the mean move only removed', options: { select: 'total', shock: 'rms' } },
  { label: 'zero-mean shock, floor 0.03', options: { ...DEFAULT_FIT, shockFloor: 0.03 } },
  { label: 'zero-mean shock, floor 0.05', options: { ...DEFAULT_FIT, shockFloor: 0.05 } },
  { label: 'zero-mean shock, floor 0.06', options: { ...DEFAULT_FIT, shockFloor: 0.06 } },
  { label: 'zero-mean shock, cells by years of history (1, 2, 3+)', options: { ...DEFAULT_FIT, cellYears: 'history' } },
];
/** The model of issue 23 (no v3 parts): every v3 variant is measured against it in the same run. */
const CURRENT_FIT: FitOptions = { select: 'line', shock: 'rms' };
/** The model v3 variants (issue 24; engine/calibrated.ts V3Options), each layered on the current fit of the same year. */
const V3_VARIANTS: Array<{ label: string; v3: V3Options; peek?: boolean }> = [
  { label: 'v3 groups: band × requirement group move, a shift where persistent, else spread', v3: { group: 'auto' } },
  { label: 'v3 groups as spread only', v3: { group: 'spread' } },
  { label: 'v3 plan size: own spread by last known plan', v3: { plan: true } },
  { label: 'v3 volatility: own spread by the line’s past moves', v3: { volatility: true } },
  { label: 'v3 plan + volatility', v3: { plan: true, volatility: true } },
  { label: 'v3 groups (auto) + volatility', v3: { group: 'auto', volatility: true } },
  { label: 'v3 all: groups (auto) + plan + volatility', v3: { group: 'auto', plan: true, volatility: true } },
  { label: 'v3 all, groups as spread only', v3: { group: 'spread', plan: true, volatility: true } },
  // Not a model: the band × group moves of the target year itself (the issue's “peeks at the answer” correction).
  {
    label: 'diagnosis only (peeks at Y): v3 all with year Y’s own band × group moves as the shift',
    v3: { group: 'spread', plan: true, volatility: true },
    peek: true,
  },
];
const V3_ALL = 'v3 all: groups (auto) + plan + volatility';

/**
 * The diagnosis model: `model` (v3 with groups) with each band × group shifted by year `year`'s own median move (the
 * year's and the band × group's, measured against the model's estimates) and no group spread. It looks at the answer.
 */
function peeked(model: FittedModel, lines: Line[], year: number, cohorts: Map<number, number>): FittedModel {
  const v3 = model.v3;
  if (!v3) return model;
  const cells = v3.groupShift.map((row) => row.map(() => [] as number[]));
  const all: number[] = [];
  for (const l of lines) {
    const actual = l.points.find((p) => p.year === year);
    const e = actual && estimate(l.points, year, cohorts, model.weights, model.planBeta, actual.planCount, model.cohortPower);
    if (!actual || !e) continue;
    const r = Math.log(actual.minRank) - e.mu;
    cells[bandOf(e.rank)][l.group].push(r);
    all.push(r);
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const m = med(all);
  const groupShift = cells.map((row) => row.map((rs) => (rs.length >= 30 ? med(rs) : m)));
  return { ...model, v3: { ...v3, groupShift, groupSpread: v3.groupSpread.map((row) => row.map(() => 0)) } };
}
/** The model file of an as-of year (the prefix is the one server/volunteer/modelFiles.ts lists for 山东). */
const modelFile = (asOf: number) => new URL(`model-shandong-${asOf}.json`, ENGINE_DIR);

const read = (name: string) => parseCsv(fs.readFileSync(new URL(name, DIR), 'utf8'));

type RankTable = Array<{ score: number; rank: number }>;

interface Line {
  key: string;
  points: YearPoint[];
  /** requirementGroup of the line's identity in the newest requirement table (UNKNOWN_GROUP without one). */
  group: number;
}

/** The years of the files `<prefix>-YYYY.csv` in the data folder, ascending. */
function yearsOfFiles(prefix: string): number[] {
  const re = new RegExp(`^${prefix}-(\\d{4})\\.csv$`);
  return fs
    .readdirSync(DIR)
    .map((f) => re.exec(f))
    .filter((m): m is RegExpExecArray => m != null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
}

function load() {
  const rankYears = yearsOfFiles('rank-table');
  const lineFiles = yearsOfFiles('toudang');
  // A year's lines are comparable with others only through its cohort (the rank table's last count).
  const years = lineFiles.filter((y) => rankYears.includes(y));
  const skipped = lineFiles.filter((y) => !rankYears.includes(y));
  if (skipped.length) console.log(`（${skipped.join('、')} 年有投档表但没有一分一段表，不参与回测）`);
  const cohorts = new Map<number, number>();
  const tables = new Map<number, RankTable>();
  for (const y of rankYears) {
    const rows = read(`rank-table-${y}.csv`).map((r) => ({ score: Number(r.score), rank: Number(r.cumulativeRank) }));
    tables.set(y, rows);
    cohorts.set(y, Math.max(...rows.map((r) => r.rank)));
  }
  const lines = new Map<string, Line>();
  const joins: Array<{ year: number; lines: number; twice: number }> = [];
  // Subject requirements: only the newest table that prints them (2026's) exists. Each line takes the requirement of
  // its identity there, earlier years too (a programme's requirement says what kind of line it is; Shandong tightened
  // many for 2024, so earlier years were filled under looser rules); an identity printed twice with two different
  // requirement groups is 其他, one absent from that table 未知.
  const reqYear = [...years].reverse().find((y) => 'subjectRequirement' in (read(`toudang-${y}.csv`)[0] ?? {}));
  const groupOfIdentity = new Map<string, number>();
  if (reqYear != null)
    for (const r of read(`toudang-${reqYear}.csv`)) {
      const id = lineIdentity({ schoolCode: r.schoolCode, majorName: r.major });
      const g = requirementGroup(r.subjectRequirement);
      const had = groupOfIdentity.get(id);
      groupOfIdentity.set(id, had == null || had === g ? g : REQUIREMENT_GROUPS.indexOf('其他'));
    }
  for (const y of years) {
    const rows = read(`toudang-${y}.csv`);
    const ids = rows.map((r) => lineIdentity({ schoolCode: r.schoolCode, majorName: r.major }));
    const count = new Map<string, number>();
    for (const id of ids) count.set(id, (count.get(id) ?? 0) + 1);
    let n = 0;
    let twice = 0;
    rows.forEach((r, i) => {
      const top = /^前(\d+)名?$/.exec(r.minRank.trim());
      const minRank = top ? Number(top[1]) : Number(r.minRank);
      if (!r.minRank.trim() || !Number.isFinite(minRank) || minRank <= 0) return;
      // An identity printed twice in one school and year stays two lines, told apart by that year's 专业代号.
      const shared = (count.get(ids[i]) ?? 0) > 1;
      const key = shared ? `${ids[i]}#${r.majorCode}` : ids[i];
      const line = lines.get(key) ?? { key, points: [], group: groupOfIdentity.get(ids[i]) ?? UNKNOWN_GROUP };
      // planCount is absent from tables that do not publish it (2026): unknown, not 0.
      line.points.push({ year: y, minRank, planCount: r.planCount ? Number(r.planCount) : null });
      lines.set(key, line);
      n++;
      if (shared) twice++;
    });
    joins.push({ year: y, lines: n, twice });
  }
  return { years, cohorts, tables, lines: [...lines.values()], joins, reqYear };
}

/** The years a fit for target `year` learns from: those before it that have an earlier year themselves. */
const trainYearsFor = (years: readonly number[], year: number) => years.filter((y) => y < year && years.some((x) => x < y));

function studentsOf(table: RankTable): number[] {
  const ranks: number[] = [];
  for (let s = 400; s <= 697; s += 3) {
    const row = table.find((r) => r.score === s) ?? table.reduce((a, b) => (Math.abs(b.score - s) < Math.abs(a.score - s) ? b : a));
    ranks.push(row.rank);
  }
  return ranks;
}

/**
 * Calibration counts, additive so that years can be pooled without keeping the pairs: for every student rank group
 * (0 = all, then STUDENT_BANDS) and both sets (all predictions, 10–90 % only) the 10 bins' pairs, Σ predicted and
 * Σ admitted, and Σ squared error of all predictions.
 */
const GROUPS = STUDENT_BANDS.length + 2;
class Acc {
  readonly n = new Float64Array(GROUPS * 2 * 10);
  readonly p = new Float64Array(GROUPS * 2 * 10);
  readonly o = new Float64Array(GROUPS * 2 * 10);
  brier = 0;

  add(p: number, admitted: boolean, studentRank: number) {
    let g = 1;
    while (g - 1 < STUDENT_BANDS.length && studentRank >= STUDENT_BANDS[g - 1]) g++;
    const bin = Math.min(9, Math.floor(p * 10));
    const o = admitted ? 1 : 0;
    const sets = p >= 0.1 && p <= 0.9 ? 2 : 1;
    for (const group of [0, g])
      for (let set = 0; set < sets; set++) {
        const i = (group * 2 + set) * 10 + bin;
        this.n[i]++;
        this.p[i] += p;
        this.o[i] += o;
      }
    this.brier += (p - o) ** 2;
  }

  merge(other: Acc): this {
    for (let i = 0; i < this.n.length; i++) {
      this.n[i] += other.n[i];
      this.p[i] += other.p[i];
      this.o[i] += other.o[i];
    }
    this.brier += other.brier;
    return this;
  }

  /** Pairs, ECE and the bins of one group and set. */
  cell(group: number, set: 0 | 1) {
    const at = (group * 2 + set) * 10;
    let total = 0;
    for (let b = 0; b < 10; b++) total += this.n[at + b];
    let e = 0;
    const bins: Metrics['bins'] = [];
    for (let b = 0; b < 10; b++) {
      const n = this.n[at + b];
      const predicted = n ? this.p[at + b] / n : Number.NaN;
      const observed = n ? this.o[at + b] / n : Number.NaN;
      if (n) e += (n / total) * Math.abs(predicted - observed);
      bins.push({ lo: b / 10, hi: (b + 1) / 10, n, predicted, observed });
    }
    return { n: total, ece: total ? e : Number.NaN, bins };
  }
}

/**
 * Interval coverage of the lines' own outcomes: the PIT of a line is P(next min rank < its actual one) under the
 * model (1 − survival at the actual rank); a calibrated model's PITs are uniform, so the central 80 % interval
 * (PIT 0.1–0.9) holds 80 % of the actual ranks and the 50 % one (0.25–0.75) half. One count per line, not per pair.
 */
class Pit {
  n = 0;
  in80 = 0;
  in50 = 0;
  readonly hist = new Float64Array(10);

  add(pit: number) {
    this.n++;
    if (pit >= 0.1 && pit <= 0.9) this.in80++;
    if (pit >= 0.25 && pit <= 0.75) this.in50++;
    this.hist[Math.min(9, Math.max(0, Math.floor(pit * 10)))]++;
  }

  merge(o: Pit): this {
    this.n += o.n;
    this.in80 += o.in80;
    this.in50 += o.in50;
    for (let i = 0; i < 10; i++) this.hist[i] += o.hist[i];
    return this;
  }
}

const infoOf = (l: Line): LineInfo => ({ group: l.group });

/** shift: a log-rank move added to every estimate (0 for the model itself; the diagnosis passes the year's own). */
function fittedPairs(model: FittedModel, lines: Line[], year: number, cohorts: Map<number, number>, students: number[], shift = 0, pit?: Pit): Acc {
  const acc = new Acc();
  const logs = students.map((r) => Math.log(r) - shift);
  for (const l of lines) {
    const actual = l.points.find((p) => p.year === year);
    if (!actual) continue;
    const past = l.points.filter((p) => p.year < year);
    if (!past.length) continue;
    // One distribution per line (the estimate does not depend on the student), read at every student's rank.
    const cell = lineCell(model, past, year, cohorts, actual.planCount, infoOf(l));
    if (!cell) continue;
    for (let i = 0; i < students.length; i++) acc.add(survival(cell.grid, logs[i] - cell.mu), students[i] <= actual.minRank, students[i]);
    pit?.add(1 - survival(cell.grid, Math.log(actual.minRank) - shift - cell.mu));
  }
  return acc;
}

/** The engine before issue 14, through its own scoreAll (rank method, plan factor, 5 % σ floor). */
function enginePairs(lines: Line[], year: number, cohorts: Map<number, number>, students: number[]): Acc {
  const usable = lines.filter((l) => l.points.some((p) => p.year === year) && l.points.some((p) => p.year < year));
  const options: AdmissionOption[] = usable.map((l) => ({
    id: l.key,
    schoolCode: l.key.split('|')[0],
    history: l.points
      .filter((p) => p.year < year)
      .map((p) => ({ year: p.year, minScore: null, minRank: p.minRank, planCount: p.planCount, cohortSize: cohorts.get(p.year) ?? null })),
    planNow: l.points.find((p) => p.year === year)?.planCount ?? null,
  }));
  const acc = new Acc();
  for (const r of students) {
    const scored = scoreAll(options, { score: 0, rank: r, year, batchLine: null, cohortSize: cohorts.get(year) ?? null });
    scored.forEach((s, i) => {
      const actual = usable[i].points.find((p) => p.year === year) as YearPoint;
      if (s.probability != null) acc.add(s.probability, r <= actual.minRank, r);
    });
  }
  return acc;
}

interface Metrics {
  n: number;
  bins: Array<{ lo: number; hi: number; n: number; predicted: number; observed: number }>;
  ece: number;
  eceMid: number;
  nMid: number;
  bands: Array<{ label: string; n: number; ece: number; eceMid: number; nMid: number }>;
  brier: number;
}

function metrics(acc: Acc): Metrics {
  const all = acc.cell(0, 0);
  const mid = acc.cell(0, 1);
  const edges = [0, ...STUDENT_BANDS, Number.POSITIVE_INFINITY];
  const bands = edges.slice(0, -1).map((lo, i) => {
    const label = i === 0 ? `< ${STUDENT_BANDS[0] / 1000}k` : i === STUDENT_BANDS.length ? `> ${lo / 1000}k` : `${lo / 1000}k–${edges[i + 1] / 1000}k`;
    const b = acc.cell(i + 1, 0);
    const m = acc.cell(i + 1, 1);
    return { label, n: b.n, ece: b.ece, eceMid: m.ece, nMid: m.n };
  });
  return { n: all.n, bins: all.bins, ece: all.ece, eceMid: mid.ece, nMid: mid.n, bands, brier: acc.brier / all.n };
}

const pp = (x: number) => (Number.isNaN(x) ? '–' : (x * 100).toFixed(1));
const worstBand = (m: Metrics) => Math.max(...m.bands.map((b) => b.ece));

function report(title: string, m: Metrics) {
  console.log(`\n#### ${title}\n`);
  console.log('| P bin | pairs | mean predicted % | observed % |');
  console.log('| ----- | ----: | ---------------: | ---------: |');
  for (const b of m.bins) console.log(`| ${b.lo.toFixed(1)}–${b.hi.toFixed(1)} | ${b.n} | ${pp(b.predicted)} | ${pp(b.observed)} |`);
  console.log(
    `\nECE overall **${pp(m.ece)} pp** (${m.n} pairs); between 10 % and 90 % **${pp(m.eceMid)} pp** (${m.nMid} pairs); Brier ${m.brier.toFixed(4)}\n`,
  );
  console.log('| student rank | pairs | ECE pp | pairs 10–90 % | ECE 10–90 % pp |');
  console.log('| ------------ | ----: | -----: | ------------: | -------------: |');
  for (const b of m.bands) console.log(`| ${b.label} | ${b.n} | ${pp(b.ece)} | ${b.nMid} | ${pp(b.eceMid)} |`);
}

const summaryCells = (m: Metrics) => `${pp(m.ece)} / ${pp(m.eceMid)} / ${pp(worstBand(m))}; ${m.brier.toFixed(4)}`;

/** The lines' points before `year` (lines with none dropped) and their requirement groups, index for index. */
function trainingLines(lines: Line[], year: number) {
  const points: YearPoint[][] = [];
  const info: LineInfo[] = [];
  for (const l of lines) {
    const past = l.points.filter((p) => p.year < year);
    if (!past.length) continue;
    points.push(past);
    info.push(infoOf(l));
  }
  return { points, info };
}

function fitFor(lines: Line[], years: number[], cohorts: Map<number, number>, year: number, options: FitOptions = DEFAULT_FIT): FittedModel {
  const { points, info } = trainingLines(lines, year);
  const base = fitModel(points, trainYearsFor(years, year), cohorts, options);
  return options.v3 ? fitV3(base, points, trainYearsFor(years, year), cohorts, info, options.v3) : base;
}

/** The summary of every fit choice tried: ECE overall / 10–90 % / worst band and Brier per target year and pooled. */
function compareVariants(lines: Line[], years: number[], targets: number[], cohorts: Map<number, number>, tables: Map<number, RankTable>) {
  const pooledLabel = `pooled ${targets[0]}–${targets[targets.length - 1]}`;
  console.log('\n### Fit choices tried (fitted model; pp: ECE overall / 10–90 % / worst band; Brier)\n');
  console.log(`| choice | ${targets.join(' | ')} | ${pooledLabel} |`);
  console.log(`| ------ | ${targets.map(() => '---:').join(' | ')} | ---: |`);
  const students = (year: number) => studentsOf(tables.get(year) as RankTable);
  for (const v of VARIANTS) {
    const pooled = new Acc();
    const cells = targets.map((year) => {
      const acc = fittedPairs(fitFor(lines, years, cohorts, year, v.options), lines, year, cohorts, students(year));
      pooled.merge(acc);
      return summaryCells(metrics(acc));
    });
    console.log(`| ${v.label} | ${cells.join(' | ')} | ${summaryCells(metrics(pooled))} |`);
  }
  // Diagnosis, not a model: the kept fit with year Y's own median move added to every estimate (a look at the
  // answer). What is left is what the year's common move does not explain.
  const pooled = new Acc();
  const oracle = targets.map((year) => {
    const model = fitFor(lines, years, cohorts, year);
    const moves: number[] = [];
    for (const l of lines) {
      const actual = l.points.find((p) => p.year === year);
      const e = actual && estimate(l.points, year, cohorts, model.weights, model.planBeta, actual.planCount, model.cohortPower);
      if (actual && e) moves.push(Math.log(actual.minRank) - e.mu);
    }
    moves.sort((a, b) => a - b);
    const move = moves[moves.length >> 1];
    const acc = fittedPairs(model, lines, year, cohorts, students(year), move);
    pooled.merge(acc);
    return `${summaryCells(metrics(acc))} (move ${move.toFixed(3)})`;
  });
  console.log(`| diagnosis only (peeks at Y): kept fit + year Y's actual median move | ${oracle.join(' | ')} | ${summaryCells(metrics(pooled))} |`);
}

const pct1 = (x: number) => (Number.isNaN(x) ? '–' : (x * 100).toFixed(1));

/**
 * Model v3 against the current model, in the same run: every V3_VARIANTS entry is layered (fitV3) on the current fit
 * of each target year (the same estimate, year shock and training years), so the differences are v3's alone. Per
 * target year and pooled: ECE between 10 % and 90 % (pairs), Brier, and the share of lines whose actual min rank fell
 * in the model's central 80 % / 50 % interval; then the issue's targets, pooled reliability and PIT deciles.
 */
function compareV3(
  lines: Line[],
  years: number[],
  targets: number[],
  cohorts: Map<number, number>,
  tables: Map<number, RankTable>,
  bases: Map<number, FittedModel>,
) {
  const pooledLabel = `pooled ${targets[0]}–${targets[targets.length - 1]}`;
  const rows: Array<{ label: string; years: Array<{ m: Metrics; pit: Pit }>; pooled: { m: Metrics; pit: Pit }; models: FittedModel[] }> = [];
  const t0 = performance.now();
  for (const v of [{ label: 'current model (issue 23)', v3: null as V3Options | null }, ...V3_VARIANTS]) {
    const pooledAcc = new Acc();
    const pooledPit = new Pit();
    const models: FittedModel[] = [];
    const perYear = targets.map((year) => {
      const base = bases.get(year) as FittedModel;
      const { points, info } = trainingLines(lines, year);
      const fitted = v.v3 ? fitV3(base, points, trainYearsFor(years, year), cohorts, info, v.v3) : base;
      const model = 'peek' in v && v.peek ? peeked(fitted, lines, year, cohorts) : fitted;
      models.push(model);
      const pit = new Pit();
      const acc = fittedPairs(model, lines, year, cohorts, studentsOf(tables.get(year) as RankTable), 0, pit);
      pooledAcc.merge(acc);
      pooledPit.merge(pit);
      return { m: metrics(acc), pit };
    });
    rows.push({ label: v.label, years: perYear, pooled: { m: metrics(pooledAcc), pit: pooledPit }, models });
  }
  const cov = (p: Pit) => `${pct1(p.in80 / p.n)} / ${pct1(p.in50 / p.n)}`;
  const cellOf = (x: { m: Metrics; pit: Pit }) => `${pp(x.m.eceMid)}; ${x.m.brier.toFixed(5)}; ${cov(x.pit)}`;
  console.log(`\n### Model v3 against the current model (each cell: ECE 10–90 % pp; Brier; lines inside the 80 % / 50 % interval %)\n`);
  console.log(`| model | ${targets.join(' | ')} | ${pooledLabel} | targets met |`);
  console.log(`| ----- | ${targets.map(() => '---:').join(' | ')} | ---: | ----- |`);
  const current = rows[0];
  for (const r of rows) {
    // The issue's targets: pooled ECE 10–90 % ≤ 3 pp and no year worse than the current model's; the 80 % interval
    // holding 75–85 % (pooled); Brier no worse than the current model's in any year.
    const ece = r.pooled.m.eceMid <= 0.03;
    const noWorse = r.years.every((y, i) => y.m.eceMid <= current.years[i].m.eceMid + 1e-12);
    const c80 = r.pooled.pit.in80 / r.pooled.pit.n;
    const coverage = c80 >= 0.75 && c80 <= 0.85;
    const brier = r.years.every((y, i) => y.m.brier <= current.years[i].m.brier + 1e-12);
    const met = [
      ece ? 'ECE ≤ 3' : 'ECE > 3',
      noWorse ? 'no year worse' : 'a year worse',
      coverage ? '80 % in 75–85' : '80 % outside 75–85',
      brier ? 'Brier no worse' : 'Brier worse',
    ];
    console.log(`| ${r.label} | ${r.years.map(cellOf).join(' | ')} | ${cellOf(r.pooled)} | ${met.join(', ')} |`);
  }
  console.log(`\nPooled reliability ${pooledLabel} (mean predicted % → observed % per bin; pairs per bin as in the model's own table):\n`);
  console.log(`| model | ${current.pooled.m.bins.map((b) => `${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`).join(' | ')} |`);
  console.log(`| ----- | ${current.pooled.m.bins.map(() => '---:').join(' | ')} |`);
  for (const r of rows) console.log(`| ${r.label} | ${r.pooled.m.bins.map((b) => `${pp(b.predicted)} → ${pp(b.observed)}`).join(' | ')} |`);
  console.log(`\nPIT deciles ${pooledLabel} (share of lines %, 10 each when calibrated; per year: the 80 % interval's share):\n`);
  console.log(`| model | ${Array.from({ length: 10 }, (_, i) => `${i / 10}–${(i + 1) / 10}`).join(' | ')} | ${targets.map((y) => `80 % ${y}`).join(' | ')} |`);
  console.log(`| ----- | ${Array.from({ length: 10 }, () => '---:').join(' | ')} | ${targets.map(() => '---:').join(' | ')} |`);
  for (const r of rows)
    console.log(
      `| ${r.label} | ${[...r.pooled.pit.hist].map((h) => pct1(h / r.pooled.pit.n)).join(' | ')} | ${r.years.map((y) => pct1(y.pit.in80 / y.pit.n)).join(' | ')} |`,
    );
  // What the full v3 fit learnt for each target year (fitted on the years before it only).
  const all = rows.find((r) => r.label === V3_ALL) ?? rows[rows.length - 1];
  console.log(`\nWhat “${all.label}” learnt (per target year, from the years before it):\n`);
  targets.forEach((year, i) => {
    const v3 = all.models[i].v3;
    if (!v3) return;
    const shifts: string[] = [];
    for (const [b, row] of v3.groupShift.entries())
      for (const [g, s] of row.entries()) if (s !== 0) shifts.push(`${bandLabel(b)} ${REQUIREMENT_GROUPS[g]} ${(s * 100).toFixed(1)} %`);
    console.log(`- ${year} (trained on ${all.models[i].trainedOn.join(', ')}): persistent band × group shifts: ${shifts.length ? shifts.join('; ') : 'none'}`);
    console.log(
      `  - extra spread by band (物理+化学 / 物理 / 不限 / 其他 / 未知): ${v3.groupSpread.map((row, b) => `${bandLabel(b)} ${row.map((x) => x.toFixed(3)).join('/')}`).join('; ')}`,
    );
    const planLabels = [
      'unknown',
      ...PLAN_CLASS_UPPER.map((u, k) => (k === 0 ? `1–${u}` : `${PLAN_CLASS_UPPER[k - 1] + 1}–${u}`)),
      `> ${PLAN_CLASS_UPPER[PLAN_CLASS_UPPER.length - 1]}`,
    ];
    console.log(
      `  - own spread × by plan (${planLabels.join(' / ')}): ${v3.planScale.map((row, b) => `${bandLabel(b)} ${row.map((x) => x.toFixed(2)).join('/')}`).join('; ')}`,
    );
    console.log(
      `  - own spread × by volatility (none / low / mid / high; cuts ${v3.volCuts.map((x) => x.toFixed(3)).join(', ') || '–'}): ${v3.volScale.map((row, b) => `${bandLabel(b)} ${row.map((x) => x.toFixed(2)).join('/')}`).join('; ')}`,
    );
  });
  console.log(`\n(v3 comparison ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}

function main() {
  const t0 = performance.now();
  const { years, cohorts, tables, lines, joins, reqYear } = load();
  // Every year with at least two earlier years: one to estimate from and one to learn the spread on.
  const targets = years.filter((y) => years.filter((x) => x < y).length >= 2);
  if (!targets.length) throw new Error(`回测至少需要三个年份的投档表和一分一段表，数据目录只有 ${years.join('、') || '0 个年份'}`);
  console.log(`年份（投档表 + 一分一段表）：${years.join('、')}；回测目标年：${targets.join('、')}`);
  const groupCounts = REQUIREMENT_GROUPS.map((name, g) => `${name} ${lines.filter((l) => l.group === g).length}`);
  console.log(`选考科目要求取自 ${reqYear ?? '（无）'} 年投档表（按专业身份，各年相同）：${groupCounts.join('，')} 条线`);
  // The current model of each target year, fitted once: the main tables and every v3 variant start from it.
  const bases = new Map<number, FittedModel>();
  const baseFor = (year: number) => {
    let m = bases.get(year);
    if (!m) {
      m = fitFor(lines, years, cohorts, year, CURRENT_FIT);
      bases.set(year, m);
    }
    return m;
  };
  const sameBase = DEFAULT_FIT.select === CURRENT_FIT.select && DEFAULT_FIT.shock === CURRENT_FIT.shock && !DEFAULT_FIT.shockFloor && !DEFAULT_FIT.cellYears;
  console.log('\n| year | lines with a numeric min rank | of them an identity printed twice in the school (kept apart by 专业代号) | with an earlier year |');
  console.log('| ---- | ----: | ----: | ----: |');
  for (const j of joins) {
    const withPast = lines.filter((l) => l.points.some((p) => p.year === j.year) && l.points.some((p) => p.year < j.year)).length;
    console.log(`| ${j.year} | ${j.lines} | ${j.twice} | ${withPast} |`);
  }
  const pooledFitted = new Acc();
  const pooledEngine = new Acc();
  const rows: Array<{ label: string; fitted: Metrics; engine: Metrics }> = [];
  for (const year of targets) {
    const model =
      sameBase && DEFAULT_FIT.v3
        ? (() => {
            const { points, info } = trainingLines(lines, year);
            return fitV3(baseFor(year), points, trainYearsFor(years, year), cohorts, info, DEFAULT_FIT.v3);
          })()
        : sameBase
          ? baseFor(year)
          : fitFor(lines, years, cohorts, year);
    const students = studentsOf(tables.get(year) as RankTable);
    const fittedAcc = fittedPairs(model, lines, year, cohorts, students);
    const engineAcc = enginePairs(lines, year, cohorts, students);
    pooledFitted.merge(fittedAcc);
    pooledEngine.merge(engineAcc);
    const fitted = metrics(fittedAcc);
    const engine = metrics(engineAcc);
    console.log(
      `\n### ${year}: fitted on ${model.trainedOn.join(', ')} (weights ${model.weights.join('/')}, cohort power ${model.cohortPower}, plan β ${model.planBeta.toFixed(3)}, drift ${model.drift.toFixed(3)}, year shock ${model.yearShock.toFixed(3)})`,
    );
    report(`${year} — fitted model`, fitted);
    report(`${year} — engine before issue 14`, engine);
    rows.push({ label: String(year), fitted, engine });
  }
  const pooledLabel = `pooled ${targets[0]}–${targets[targets.length - 1]}`;
  const pooled = { label: pooledLabel, fitted: metrics(pooledFitted), engine: metrics(pooledEngine) };
  report(`${pooledLabel} — fitted model (every target year's pairs together)`, pooled.fitted);
  report(`${pooledLabel} — engine before issue 14`, pooled.engine);
  rows.push(pooled);

  console.log('\n### Summary (pp; targets ECE ≤ 3 overall, ≤ 5 between 10 % and 90 %, ≤ 5 in every band)\n');
  console.log(
    '| year | fitted ECE | fitted ECE 10–90 % | fitted worst band | fitted Brier | engine ECE | engine ECE 10–90 % | engine worst band | engine Brier |',
  );
  console.log(
    '| ---- | ---------: | -----------------: | ----------------: | -----------: | ---------: | -----------------: | ----------------: | -----------: |',
  );
  for (const { label, fitted: f, engine: e } of rows)
    console.log(
      `| ${label} | ${pp(f.ece)} | ${pp(f.eceMid)} | ${pp(worstBand(f))} | ${f.brier.toFixed(4)} | ${pp(e.ece)} | ${pp(e.eceMid)} | ${pp(worstBand(e))} | ${e.brier.toFixed(4)} |`,
    );
  const bandNames = pooled.fitted.bands.map((b) => b.label);
  console.log('\n### ECE per student rank band (pp; fitted / engine before; in brackets: between 10 % and 90 %)\n');
  console.log(`| year | ${bandNames.join(' | ')} |`);
  console.log(`| ---- | ${bandNames.map(() => '---:').join(' | ')} |`);
  for (const { label, fitted: f, engine: e } of rows)
    console.log(`| ${label} | ${f.bands.map((b, i) => `${pp(b.ece)} / ${pp(e.bands[i].ece)} (${pp(b.eceMid)} / ${pp(e.bands[i].eceMid)})`).join(' | ')} |`);

  for (const year of targets) baseFor(year);
  compareV3(lines, years, targets, cohorts, tables, bases);
  if (process.argv.includes('--variants')) compareVariants(lines, years, targets, cohorts, tables);
  if (process.argv.includes('--write-model')) {
    // One model per as-of year Y: what a server that has seen the years ≤ Y only would use (targets up to Y).
    // From the first year with a year of history before it (2022: trained on 2022 alone, for the replay of 2023).
    const asOfYears = years.filter((y) => trainYearsFor(years, y + 1).length > 0 && (!process.argv.includes('--only-missing') || !fs.existsSync(modelFile(y))));
    for (const asOf of asOfYears) {
      const { points, info } = trainingLines(lines, asOf + 1);
      const base = fitModel(points, trainYearsFor(years, asOf + 1), cohorts);
      const fitted = DEFAULT_FIT.v3 ? fitV3(base, points, trainYearsFor(years, asOf + 1), cohorts, info, DEFAULT_FIT.v3) : base;
      // How much of a line's move its school and its major category share in a year (the plan simulation's correlation,
      // engine/simulate.ts), measured on the same training years only.
      const keyed = lines
        .map((l) => {
          const [school, , major] = l.key.split('|');
          return { school, category: majorCategory(major.split('#')[0]), points: l.points.filter((p) => p.year <= asOf) };
        })
        .filter((l) => l.points.length > 1);
      const model = { ...fitted, sharedShifts: fitSharedShifts(keyed, fitted, trainYearsFor(years, asOf + 1), cohorts) };
      const file = modelFile(asOf);
      fs.writeFileSync(file, `${JSON.stringify({ province: '山东', asOf, rankBands: RANK_BANDS, ...model })}\n`);
      // The files are committed and CI lints every JSON file: write them in the formatter's layout.
      execFileSync('npx', ['biome', 'format', '--write', file.pathname], { stdio: 'ignore' });
      console.log(
        `\n模型已写入 ${file.pathname}（同校共享 ${model.sharedShifts.school.toFixed(3)}，同类专业共享 ${model.sharedShifts.category.toFixed(3)}；截至 ${asOf} 年，训练目标年 ${model.trainedOn.join('、')}；权重 ${model.weights.join('/')}，位次人数幂 ${model.cohortPower}，计划数系数 ${model.planBeta.toFixed(3)}，年度波动 ${model.yearShock.toFixed(3)}）`,
      );
      for (let b = 0; b < model.counts.length; b++) console.log(`  ${bandLabel(b)}: ${model.counts[b].join(' / ')} 条（1 / 2 / 3+ 年）`);
    }
  }
  console.log(`\n用时 ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

main();
