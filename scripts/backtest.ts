/**
 * npm run backtest [-- --write-model]: the acceptance model measured on Shandong's real lines (docs/volunteer-model.md).
 *
 * For Y = 2023, 2024, 2025: fit on the years up to Y−1 only, predict year Y, and compare with what happened. The
 * students are every 3rd score from 400 to 697 points of year Y's 一分一段 table (their rank is that year's
 * cumulative count); each student is paired with every line of year Y that has a numeric min rank and at least
 * one earlier year; the outcome is "admitted" when the student's rank is at or better than the line's min rank.
 * Printed for the fitted model and for the engine as it was (weights 0.5/0.3/0.2, σ = max(sd, 5 % of R), plan
 * factor R × plan_now / plan_avg): a reliability table (10 probability bins), the expected calibration error
 * overall, over the predictions between 10 % and 90 % alone, and in student rank bands, and the Brier score.
 * --write-model fits on every year (targets 2022–2025) and writes server/volunteer/engine/model-shandong.json.
 * --variants also prints the summary of each fit choice tried (VARIANTS below), fitted model only.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { parseCsv } from '../server/db/seed/admission.js';
import {
  bandLabel,
  DEFAULT_FIT,
  estimate,
  type FitOptions,
  type FittedModel,
  fitModel,
  predict,
  RANK_BANDS,
  type YearPoint,
} from '../server/volunteer/engine/calibrated.js';
import { type AdmissionOption, scoreAll } from '../server/volunteer/engine/index.js';

const DIR = new URL('../server/db/seed/data/gaokao-shandong/', import.meta.url);
const YEARS = [2021, 2022, 2023, 2024, 2025];
const TARGETS = [2023, 2024, 2025];
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
const MODEL_FILE = new URL('../server/volunteer/engine/model-shandong.json', import.meta.url);

const read = (name: string) => parseCsv(fs.readFileSync(new URL(name, DIR), 'utf8'));

/** Same normalisation as the import's name match: no spaces, ASCII brackets. */
const norm = (s: string) => s.replace(/\s+/g, '').replace(/（/g, '(').replace(/）/g, ')');

interface Line {
  key: string;
  points: YearPoint[];
}

function load() {
  const cohorts = new Map<number, number>();
  const tables = new Map<number, Array<{ score: number; rank: number }>>();
  for (const y of YEARS) {
    const rows = read(`rank-table-${y}.csv`).map((r) => ({ score: Number(r.score), rank: Number(r.cumulativeRank) }));
    tables.set(y, rows);
    cohorts.set(y, Math.max(...rows.map((r) => r.rank)));
  }
  const lines = new Map<string, Line>();
  for (const y of YEARS) {
    const rows = read(`toudang-${y}.csv`);
    const count = new Map<string, number>();
    for (const r of rows) count.set(`${r.schoolCode}|${norm(r.major)}`, (count.get(`${r.schoolCode}|${norm(r.major)}`) ?? 0) + 1);
    for (const r of rows) {
      const top = /^前(\d+)名?$/.exec(r.minRank.trim());
      const minRank = top ? Number(top[1]) : Number(r.minRank);
      if (!r.minRank.trim() || !Number.isFinite(minRank) || minRank <= 0) continue;
      const base = `${r.schoolCode}|${norm(r.major)}`;
      // A name printed twice in one school and year stays two lines (as in the catalogue).
      const key = (count.get(base) ?? 0) > 1 ? `${base}#${r.majorCode}` : base;
      const line = lines.get(key) ?? { key, points: [] };
      line.points.push({ year: y, minRank, planCount: r.planCount ? Number(r.planCount) : null });
      lines.set(key, line);
    }
  }
  return { cohorts, tables, lines: [...lines.values()] };
}

interface Pair {
  p: number;
  admitted: boolean;
  studentRank: number;
}

function studentsOf(table: Array<{ score: number; rank: number }>): number[] {
  const ranks: number[] = [];
  for (let s = 400; s <= 697; s += 3) {
    const row = table.find((r) => r.score === s) ?? table.reduce((a, b) => (Math.abs(b.score - s) < Math.abs(a.score - s) ? b : a));
    ranks.push(row.rank);
  }
  return ranks;
}

/** shift: a log-rank move added to every estimate (0 for the model itself; the diagnosis passes the year's own). */
function fittedPairs(model: FittedModel, lines: Line[], year: number, cohorts: Map<number, number>, students: number[], shift = 0): Pair[] {
  const pairs: Pair[] = [];
  for (const l of lines) {
    const actual = l.points.find((p) => p.year === year);
    if (!actual) continue;
    const past = l.points.filter((p) => p.year < year);
    if (!past.length) continue;
    for (const r of students) {
      const pr = predict(model, past, year, cohorts, r * Math.exp(-shift), actual.planCount);
      if (pr) pairs.push({ p: pr.probability, admitted: r <= actual.minRank, studentRank: r });
    }
  }
  return pairs;
}

/** The engine before issue 14, through its own scoreAll (rank method, plan factor, 5 % σ floor). */
function enginePairs(lines: Line[], year: number, cohorts: Map<number, number>, students: number[]): Pair[] {
  const usable = lines.filter((l) => l.points.some((p) => p.year === year) && l.points.some((p) => p.year < year));
  const options: AdmissionOption[] = usable.map((l) => ({
    id: l.key,
    schoolCode: l.key.split('|')[0],
    history: l.points
      .filter((p) => p.year < year)
      .map((p) => ({ year: p.year, minScore: null, minRank: p.minRank, planCount: p.planCount, cohortSize: cohorts.get(p.year) ?? null })),
    planNow: l.points.find((p) => p.year === year)?.planCount ?? null,
  }));
  const pairs: Pair[] = [];
  for (const r of students) {
    const scored = scoreAll(options, { score: 0, rank: r, year, batchLine: null, cohortSize: cohorts.get(year) ?? null });
    scored.forEach((s, i) => {
      const actual = usable[i].points.find((p) => p.year === year) as YearPoint;
      if (s.probability != null) pairs.push({ p: s.probability, admitted: r <= actual.minRank, studentRank: r });
    });
  }
  return pairs;
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

function ece(pairs: Pair[]): number {
  const bins = Array.from({ length: 10 }, () => ({ n: 0, p: 0, o: 0 }));
  for (const x of pairs) {
    const b = bins[Math.min(9, Math.floor(x.p * 10))];
    b.n++;
    b.p += x.p;
    b.o += x.admitted ? 1 : 0;
  }
  let e = 0;
  for (const b of bins) if (b.n) e += (b.n / pairs.length) * Math.abs(b.p / b.n - b.o / b.n);
  return pairs.length ? e : Number.NaN;
}

function metrics(pairs: Pair[]): Metrics {
  const bins = Array.from({ length: 10 }, (_, i) => ({ lo: i / 10, hi: (i + 1) / 10, n: 0, predicted: 0, observed: 0 }));
  let brier = 0;
  for (const x of pairs) {
    const b = bins[Math.min(9, Math.floor(x.p * 10))];
    b.n++;
    b.predicted += x.p;
    b.observed += x.admitted ? 1 : 0;
    brier += (x.p - (x.admitted ? 1 : 0)) ** 2;
  }
  for (const b of bins) {
    b.predicted = b.n ? b.predicted / b.n : Number.NaN;
    b.observed = b.n ? b.observed / b.n : Number.NaN;
  }
  const mid = (ps: Pair[]) => ps.filter((x) => x.p >= 0.1 && x.p <= 0.9);
  const edges = [0, ...STUDENT_BANDS, Number.POSITIVE_INFINITY];
  const bands = edges.slice(0, -1).map((lo, i) => {
    const ps = pairs.filter((x) => x.studentRank >= lo && x.studentRank < edges[i + 1]);
    const label = i === 0 ? `< ${STUDENT_BANDS[0] / 1000}k` : i === STUDENT_BANDS.length ? `> ${lo / 1000}k` : `${lo / 1000}k–${edges[i + 1] / 1000}k`;
    return { label, n: ps.length, ece: ece(ps), eceMid: ece(mid(ps)), nMid: mid(ps).length };
  });
  return { n: pairs.length, bins, ece: ece(pairs), eceMid: ece(mid(pairs)), nMid: mid(pairs).length, bands, brier: brier / pairs.length };
}

const pp = (x: number) => (Number.isNaN(x) ? '–' : (x * 100).toFixed(1));

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

/** The summary of every fit choice tried: ECE overall / 10–90 % / worst band and Brier per target year. */
function compareVariants(lines: Line[], cohorts: Map<number, number>, tables: Map<number, Array<{ score: number; rank: number }>>) {
  console.log('\n### Fit choices tried (fitted model; pp: ECE overall / 10–90 % / worst band; Brier)\n');
  console.log(`| choice | ${TARGETS.join(' | ')} |`);
  console.log(`| ------ | ${TARGETS.map(() => '---:').join(' | ')} |`);
  for (const v of VARIANTS) {
    const cells = TARGETS.map((year) => {
      const train = lines.map((l) => l.points.filter((p) => p.year < year)).filter((p) => p.length > 0);
      const model = fitModel(
        train,
        YEARS.filter((y) => y < year && y > YEARS[0]),
        cohorts,
        v.options,
      );
      const m = metrics(fittedPairs(model, lines, year, cohorts, studentsOf(tables.get(year) as Array<{ score: number; rank: number }>)));
      return `${pp(m.ece)} / ${pp(m.eceMid)} / ${pp(Math.max(...m.bands.map((b) => b.ece)))}; ${m.brier.toFixed(4)}`;
    });
    console.log(`| ${v.label} | ${cells.join(' | ')} |`);
  }
  // Diagnosis, not a model: the kept fit with year Y's own median move added to every estimate (a look at the
  // answer). What is left is what the year's common move does not explain.
  const oracle = TARGETS.map((year) => {
    const train = lines.map((l) => l.points.filter((p) => p.year < year)).filter((p) => p.length > 0);
    const model = fitModel(
      train,
      YEARS.filter((y) => y < year && y > YEARS[0]),
      cohorts,
    );
    const moves: number[] = [];
    for (const l of lines) {
      const actual = l.points.find((p) => p.year === year);
      const e = actual && estimate(l.points, year, cohorts, model.weights, model.planBeta, actual.planCount, model.cohortPower);
      if (actual && e) moves.push(Math.log(actual.minRank) - e.mu);
    }
    moves.sort((a, b) => a - b);
    const move = moves[moves.length >> 1];
    const students = studentsOf(tables.get(year) as Array<{ score: number; rank: number }>);
    const pairs = fittedPairs(model, lines, year, cohorts, students, move);
    const m = metrics(pairs);
    return `${pp(m.ece)} / ${pp(m.eceMid)} / ${pp(Math.max(...m.bands.map((b) => b.ece)))}; ${m.brier.toFixed(4)} (move ${move.toFixed(3)})`;
  });
  console.log(`| diagnosis only (peeks at Y): kept fit + year Y's actual median move | ${oracle.join(' | ')} |`);
}

function main() {
  const t0 = performance.now();
  const { cohorts, tables, lines } = load();
  const summary: string[] = [];
  for (const year of TARGETS) {
    const train = lines.map((l) => l.points.filter((p) => p.year < year)).filter((p) => p.length > 0);
    const model = fitModel(
      train,
      YEARS.filter((y) => y < year && y > YEARS[0]),
      cohorts,
    );
    const students = studentsOf(tables.get(year) as Array<{ score: number; rank: number }>);
    const fitted = metrics(fittedPairs(model, lines, year, cohorts, students));
    const engine = metrics(enginePairs(lines, year, cohorts, students));
    console.log(
      `\n### ${year}: fitted on ${model.trainedOn.join(', ')} (weights ${model.weights.join('/')}, cohort power ${model.cohortPower}, plan β ${model.planBeta.toFixed(3)}, drift ${model.drift.toFixed(3)}, year shock ${model.yearShock.toFixed(3)})`,
    );
    report(`${year} — fitted model`, fitted);
    report(`${year} — engine before issue 14`, engine);
    const worst = Math.max(...fitted.bands.map((b) => b.ece));
    summary.push(
      `| ${year} | ${pp(fitted.ece)} | ${pp(fitted.eceMid)} | ${pp(worst)} | ${fitted.brier.toFixed(4)} | ${pp(engine.ece)} | ${pp(engine.eceMid)} | ${pp(Math.max(...engine.bands.map((b) => b.ece)))} | ${engine.brier.toFixed(4)} |`,
    );
  }
  console.log('\n### Summary (pp; targets ECE ≤ 3 overall, ≤ 5 between 10 % and 90 %, ≤ 5 in every band)\n');
  console.log(
    '| year | fitted ECE | fitted ECE 10–90 % | fitted worst band | fitted Brier | engine ECE | engine ECE 10–90 % | engine worst band | engine Brier |',
  );
  console.log(
    '| ---- | ---------: | -----------------: | ----------------: | -----------: | ---------: | -----------------: | ----------------: | -----------: |',
  );
  for (const s of summary) console.log(s);
  if (process.argv.includes('--variants')) compareVariants(lines, cohorts, tables);
  if (process.argv.includes('--write-model')) {
    const model = fitModel(
      lines.map((l) => l.points),
      YEARS.slice(1),
      cohorts,
    );
    fs.writeFileSync(MODEL_FILE, `${JSON.stringify({ province: '山东', rankBands: RANK_BANDS, ...model })}\n`);
    // The file is committed and CI lints every JSON file: write it in the formatter's layout.
    execFileSync('npx', ['biome', 'format', '--write', MODEL_FILE.pathname], { stdio: 'ignore' });
    console.log(`\n模型已写入 ${MODEL_FILE.pathname}（权重 ${model.weights.join('/')}，计划数系数 ${model.planBeta.toFixed(3)}）`);
    for (let b = 0; b < model.counts.length; b++) console.log(`  ${bandLabel(b)}: ${model.counts[b].join(' / ')} 条（1 / 2 / 3+ 年）`);
  }
  console.log(`\n用时 ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

main();
