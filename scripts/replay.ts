/**
 * npm run replay [-- --years 2025,2026] [-- --out /path/to/section.md] [-- --csv /path/to/students.csv]: plans
 * proved by replaying past years (issue 24 item 6). --csv also writes one row per student, mode and planner.
 *
 * For each year Y with at least two earlier loaded years (the years are data: every year with a 投档表 and an
 * 一分一段表 in server/db/seed/data/gaokao-shandong/), the server is asked for the auto-fill of a grid of students as
 * it would have answered before Y's lines were known, and each plan is replayed on year Y's real lines. The database
 * is a temporary SQLite one built with the server's own migrations, seed and history import, loaded year by year as
 * a server receives the data (the demo seed's one year is removed first).
 *
 * - Students: ranks RANKS × subject combinations COMBOS. The student of rank r is the candidate at rank r of year Y's
 *   cohort: their score is the score at that rank in Y's 一分一段表. Stored students (examYear Y, default preferences,
 *   no 专项资格); the auto-fill is filling.ts autofillPlan with its defaults (冲20/稳40/保36). Two ways the server
 *   knows the student's rank, both in one run:
 *   A. June of Y (what happens: Shandong publishes the 一分一段表 with the scores, before families fill): the
 *      database holds the lines up to Y−1 and the rank tables up to Y, no ADMISSION_AS_OF; the server ranks the score
 *      in Y's own table (catalogue.ts rankYearFor) and brings the estimates to Y's cohort.
 *   B. ADMISSION_AS_OF=Y−1: the server ranks the score in its newest table, Y−1's. Scores of two years are not on one
 *      scale (662 was rank 2,000 in 2023 and rank 452 in 2022), so B measures that conversion as much as the plan.
 *   In both the catalogue is Y−1's lines and the model that of the newest as-of year ≤ Y−1 (modelFiles.ts).
 * - Year Y's line of a choice: its programme's line, joined by the server's own catalogue as of Y (school + line
 *   identity, engine/identity.ts). None: a dead choice.
 * - Subject violation: Y's line requires a subject the student lacks. Only a 投档表 that prints 选考科目要求 can be
 *   checked (2026's); for earlier years the newest table's requirement of the same programme stands in (a proxy:
 *   Shandong tightened many requirements for 2024, so before 2024 it overstates violations), and a programme absent
 *   from the newest table is unknown. A violating choice never admits (the official system refuses to save it).
 * - Parallel 投档: the student lands at the first live choice whose Y min rank is at or after their rank; none: 滑档.
 * - Landing waste = (the admitted line's Y min rank ÷ the best Y line the student could have entered) − 1, where the
 *   best is the smallest Y min rank at or after the student's rank among Y's lines the student may fill (subjects as
 *   above, an unknown requirement counting as allowed; no special plans: 专项, 定向, 公费师范, 预科, 民族班).
 * - Beside it, in the same run, a naive planner (replay/replay.ts naivePlan): 96 lines of year Y−1 the student may
 *   fill as the server says (subjects where it knows them, no special plans), spread evenly in log rank over
 *   0.8 r … 2.5 r of the rank the server gave the student, most selective first.
 *
 * Prints per year and pooled: dead-choice share, subject violations, 滑档, median landing choice, median and p90
 * landing waste, product against naive; writes the tables (with date and machine) to --out (default
 * /tmp/docs-replay.md) for docs/benchmarks.md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../server/config.js';
import { openDatabase } from '../server/db/connection.js';
import { migrate } from '../server/db/migrate.js';
import { parseCsv, SHANDONG } from '../server/db/seed/admission.js';
import { seed } from '../server/db/seed/index.js';
import { applyTargetRequirements, type Catalogue, type CatalogueEntry, requireCatalogue, subjectUnknown } from '../server/volunteer/catalogue.js';
import { type Actor, SUBJECTS } from '../server/volunteer/common.js';
import { subjectNameSet, subjectsAllow } from '../server/volunteer/eligibility.js';
import { lineIdentity, normaliseText } from '../server/volunteer/engine/identity.js';
import { eligibilityNeeded } from '../server/volunteer/engine/specialPlans.js';
import { autofillPlan, resolveSubject } from '../server/volunteer/filling.js';
import { importAdmission } from '../server/volunteer/import/apply.js';
import { HISTORY_DIR, historyFiles, seedShandongHistory } from '../server/volunteer/import/history.js';
import { fittedModelOf } from '../server/volunteer/modelFiles.js';
import {
  bestReachable,
  naivePlan,
  quantile,
  type ReplayChoice,
  type ReplaySummary,
  replayStudent,
  type StudentReplay,
  type SubjectCheck,
  scoreAtRank,
  summarise,
} from '../server/volunteer/replay/replay.js';
import { createStudent } from '../server/volunteer/students.js';

const RANKS = [2_000, 5_000, 10_000, 20_000, 40_000, 70_000, 100_000, 150_000, 220_000];
/** Subject combinations (SUBJECTS ids): 物化生, 史地政, 物化地, 生史地. */
const COMBOS: number[][] = [
  [1, 2, 3],
  [4, 5, 6],
  [1, 2, 5],
  [3, 4, 5],
];

/** One character per subject, as families say it (物化生, 史地政); 历史 is 史, not its first character. */
const SHORT: Record<string, string> = { 物理: '物', 化学: '化', 生物: '生', 历史: '史', 地理: '地', 政治: '政' };
const comboName = (c: readonly number[]) => c.map((i) => SHORT[SUBJECTS[i]]).join('');

type Mode = 'june' | 'asof';
const MODES: Array<{ key: Mode; label: string; title: string }> = [
  {
    key: 'june',
    label: 'A',
    title: "A. June of Y: Y's 一分一段表 published (the student ranked in it), lines up to Y−1",
  },
  {
    key: 'asof',
    label: 'B',
    title: "B. `ADMISSION_AS_OF=Y−1`: the score ranked in Y−1's 一分一段表",
  },
];

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  const eq = process.argv.find((a) => a.startsWith(`${name}=`));
  return eq?.slice(name.length + 1);
}

function setAsOf(year: number | null) {
  if (year == null) delete process.env.ADMISSION_AS_OF;
  else process.env.ADMISSION_AS_OF = String(year);
}

const readData = (name: string) => fs.readFileSync(new URL(name, HISTORY_DIR), 'utf8');

/** A plan as the server made it before year Y, with the naive planner's beside it. */
interface Planned {
  mode: Mode;
  year: number;
  combo: number[];
  rank: number;
  score: number;
  /** The rank the server gave the student. */
  serverRank: number | null;
  productIds: number[];
  productTiers: Array<string | null>;
  naiveIds: number[];
  autofillMs: number;
}

/** Year Y's view of its lines: the requirement to check a student against and where it comes from, special plans. */
interface YearLines {
  cat: Catalogue;
  /** 'own': Y's 投档表 prints it; 'proxy': the newest table's requirement of the same programme; 'none': unknown. */
  reqSource: Array<'own' | 'proxy' | 'none'>;
  req: Array<string | null>;
  special: Uint8Array;
}

function yearLines(catY: Catalogue, newest: Catalogue): YearLines {
  const n = catY.entries.length;
  const reqSource: YearLines['reqSource'] = new Array(n);
  const req: Array<string | null> = new Array(n);
  const special = new Uint8Array(n);
  catY.entries.forEach((e, i) => {
    if (catY.has.subjectReq && e.subjectReq) {
      reqSource[i] = 'own';
      req[i] = e.subjectReq;
    } else {
      const idx = newest.has.subjectReq ? newest.byLineId.get(e.lineId) : undefined;
      const r = idx == null ? null : newest.entries[idx].subjectReq;
      reqSource[i] = r ? 'proxy' : 'none';
      req[i] = r || null;
    }
    special[i] = eligibilityNeeded(e.planTags).length ? 1 : 0;
  });
  return { cat: catY, reqSource, req, special };
}

interface Row {
  mode: Mode;
  year: number;
  rank: number;
  combo: string;
  score: number;
  serverRank: number | null;
  best: number | null;
  product: StudentReplay;
  naive: StudentReplay;
  productItems: number;
  productTier: string | null;
  /** Live product choices whose requirement was checked against Y's own table / the proxy / not at all. */
  checked: { own: number; proxy: number; none: number };
  autofillMs: number;
}

const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);
const num = (x: number, d = 2) => (Number.isNaN(x) ? '–' : x.toFixed(d));

type Kdb = Awaited<ReturnType<typeof openDatabase>>['kysely'];

/**
 * The 选考科目要求 year Y published before its filling, by line identity. Requirements are public in spring with the
 * 招生计划, before families fill, so the planner of year Y knows them (its lines it does not). Only the newest 投档表
 * prints requirements (2026's): for 2026 they are the year's own, for earlier years the same programme's 2026
 * requirement stands in — the very table the replay checks violations against, so planner and check agree. A
 * programme without a 2026 line has no requirement here and stays fillable (not excluded: that would tell the
 * planner which programmes survive to 2026).
 */
let requirementTable: { year: number | null; exact: Map<string, string>; base: Map<string, string | null> } | null = null;
function publishedRequirements() {
  if (requirementTable) return requirementTable;
  const table = { year: null as number | null, exact: new Map<string, string>(), base: new Map<string, string | null>() };
  const files = historyFiles();
  for (const y of [...files.lines].sort((a, b) => b - a)) {
    const rows = parseCsv(readData(`toudang-${y}.csv`));
    if (!rows.length || !('subjectRequirement' in rows[0])) continue;
    table.year = y;
    for (const r of rows) {
      if (!r.subjectRequirement) continue;
      const base = lineIdentity({ schoolCode: r.schoolCode, majorName: r.major });
      const exact = `${base}#${normaliseText(r.major)}`;
      if (!table.exact.has(exact)) table.exact.set(exact, r.subjectRequirement);
      // A base identity two lines of the year share with different requirements answers nothing.
      const had = table.base.get(base);
      table.base.set(base, had === undefined || had === r.subjectRequirement ? r.subjectRequirement : null);
    }
    break;
  }
  requirementTable = table;
  return table;
}

/** The published requirement of a catalogue line: by its exact printed name, else by its identity when unambiguous. */
function publishedRequirementOf(e: CatalogueEntry): string | null {
  const t = publishedRequirements();
  const base = lineIdentity({ schoolCode: e.school.schoolCode, groupCode: e.groupCode, majorName: e.majorName });
  return t.exact.get(`${base}#${normaliseText(e.majorName ?? '')}`) ?? t.base.get(base) ?? null;
}

/** Auto-fill and naive plan of every grid student of year Y, as the server answers now (mode set by the caller). */
async function planYear(k: Kdb, actor: Actor, mode: Mode, Y: number): Promise<Planned[]> {
  const out: Planned[] = [];
  let naiveLines: Map<string, Array<{ id: number; minRank: number }>> | null = null;
  const table = parseCsv(readData(`rank-table-${Y}.csv`)).map((r) => ({ score: Number(r.score), cumulativeRank: Number(r.cumulativeRank) }));
  for (const combo of COMBOS) {
    for (const rank of RANKS) {
      const score = scoreAtRank(table, rank);
      const created = await createStudent(k, actor, {
        name: `回放${mode === 'june' ? 'A' : 'B'}${Y}-${comboName(combo)}-${rank / 1000}k`,
        score,
        subjects: combo,
        province: SHANDONG,
        examYear: Y,
      });
      const { cat, subject } = await resolveSubject(k, actor, { studentId: created.studentId });
      if (cat.year !== Y - 1) throw new Error(`规划 ${Y} 年时目录年份应为 ${Y - 1}，实际为 ${cat.year}`);
      applyTargetRequirements(cat, publishedRequirementOf);
      const rankYear = cat.rankYearFor(Y);
      if (rankYear !== (mode === 'june' ? Y : Y - 1)) throw new Error(`${Y} 年考生按 ${rankYear} 年一分一段表排位，与回放方式 ${mode} 不符`);
      const a0 = performance.now();
      const plan = await autofillPlan(k, cat, subject, {});
      const autofillMs = performance.now() - a0;
      // The naive planner's candidates: Y−1's lines the server lets the student fill (per subject combination).
      naiveLines ??= new Map();
      let lines = naiveLines.get(combo.join());
      if (!lines) {
        const mine = subjectNameSet(combo.join(','));
        lines = [];
        for (const e of cat.entries) {
          const r = e.years[0].minRank;
          if (r == null || eligibilityNeeded(e.planTags).length) continue;
          if (cat.has.subjectReq && (subjectUnknown(cat, e) || !subjectsAllow(e.subjectReq, mine))) continue;
          lines.push({ id: e.lineId, minRank: r });
        }
        naiveLines.set(combo.join(), lines);
      }
      out.push({
        mode,
        year: Y,
        combo,
        rank,
        score,
        serverRank: subject.rank,
        productIds: plan.items.map((i) => i.lineId),
        productTiers: plan.items.map((i) => i.tier ?? null),
        naiveIds: naivePlan(lines, subject.rank ?? rank),
        autofillMs,
      });
    }
  }
  return out;
}

/** Each plan of year Y replayed on Y's lines (catY: the catalogue as of Y; newest: the one with requirements). */
function replayYear(planned: Planned[], catY: Catalogue, newest: Catalogue): Row[] {
  const lines = yearLines(catY, newest);
  const Y = catY.year;
  const rows: Row[] = [];
  const fillableBy = new Map<string, number[]>();
  for (const p of planned) {
    const mine = subjectNameSet(p.combo.join(','));
    const check = (idx: number): SubjectCheck => (lines.reqSource[idx] === 'none' ? 'unknown' : subjectsAllow(lines.req[idx], mine) ? 'ok' : 'violation');
    const checked = { own: 0, proxy: 0, none: 0 };
    const choices = (ids: number[], count: boolean): ReplayChoice[] =>
      ids.map((lineId) => {
        const idx = catY.byLineId.get(lineId);
        const y = idx == null ? null : catY.entries[idx].years[0];
        if (idx == null || !y || y.year !== Y || y.minRank == null) return { minRank: null, subjects: 'unknown' };
        if (count) checked[lines.reqSource[idx]]++;
        return { minRank: y.minRank, subjects: check(idx) };
      });
    // Year Y's lines this student may fill: no special plan, subjects allowed (unknown counts as allowed).
    let fillable = fillableBy.get(p.combo.join());
    if (!fillable) {
      fillable = [];
      for (const [i, e] of catY.entries.entries()) {
        const r = e.years[0].minRank;
        if (r != null && !lines.special[i] && subjectsAllow(lines.req[i], mine)) fillable.push(r);
      }
      fillableBy.set(p.combo.join(), fillable);
    }
    const best = bestReachable(fillable, p.rank);
    const product = replayStudent(choices(p.productIds, true), p.rank, best);
    const naive = replayStudent(choices(p.naiveIds, false), p.rank, best);
    rows.push({
      mode: p.mode,
      year: Y,
      rank: p.rank,
      combo: comboName(p.combo),
      score: p.score,
      serverRank: p.serverRank,
      best,
      product,
      naive,
      productItems: p.productIds.length,
      productTier: product.landedAt == null ? null : p.productTiers[product.landedAt - 1],
      checked,
      autofillMs: p.autofillMs,
    });
  }
  return rows;
}

async function main() {
  const t0 = performance.now();
  const out = argValue('--out') ?? '/tmp/docs-replay.md';
  const onlyYears = argValue('--years')
    ?.split(',')
    .map((s) => Number(s.trim()))
    .filter(Number.isFinite);
  const files = historyFiles();
  const years = files.lines.filter((y) => files.rankTables.includes(y));
  const targets = years.filter((y) => years.filter((x) => x < y).length >= 2).filter((y) => !onlyYears?.length || onlyYears.includes(y));
  if (!targets.length) throw new Error(`回放至少需要三个年份的投档表和一分一段表，数据目录只有 ${years.join('、') || '0 个年份'}`);
  console.log(`年份（投档表 + 一分一段表）：${years.join('、')}；回放目标年：${targets.join('、')}`);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-replay-'));
  const db = await openDatabase(loadConfig({}, { dataDir, logger: false }));
  const k = db.kysely;
  const planned: Planned[] = [];
  const rows: Row[] = [];
  const setup: string[] = [];
  let loadMs = 0;
  let planMs = 0;
  try {
    setAsOf(null);
    const s0 = performance.now();
    await migrate(db);
    await seed(db);
    // The demo seed's one year (2025 lines without 专业代号, the 2025 一分一段表) would make every step a 2025 server:
    // removed, then the years are imported as they arrived.
    await k.deleteFrom('gkAdmissionLine').where('examProvince', '=', SHANDONG).execute();
    await k.deleteFrom('gkScoreSegment').where('examProvince', '=', SHANDONG).execute();
    await seedShandongHistory(
      k,
      years.filter((y) => y < targets[0]),
    );
    loadMs += performance.now() - s0;
    const admin = await k.selectFrom('sysUser').select(['userId', 'userName']).where('userName', '=', 'admin').executeTakeFirstOrThrow();
    const actor: Actor = { userId: admin.userId, userName: admin.userName, roles: ['admin'] };

    // Pass 1, year by year as the data arrived: the plans made before each target year's lines.
    for (const Y of targets) {
      const i0 = performance.now();
      setAsOf(null);
      // Every year before Y (lines and table), then Y's 一分一段表 alone, as in June of Y.
      await seedShandongHistory(
        k,
        years.filter((y) => y < Y),
      );
      await importAdmission(k, { province: SHANDONG, kind: 'rankTable', year: Y, csv: readData(`rank-table-${Y}.csv`) });
      loadMs += performance.now() - i0;
      const cat = await requireCatalogue(k, SHANDONG);
      const model = fittedModelOf(SHANDONG, Y - 1) as { asOf?: number; trainedOn?: number[] } | null;
      const modelNote = model
        ? `拟合模型（截至 ${model.asOf ?? '?'} 年，训练目标年 ${model.trainedOn?.join('、') ?? '?'}）`
        : `无截至 ${Y - 1} 年的拟合模型，按问题 14 之前的引擎估算`;
      applyTargetRequirements(cat, publishedRequirementOf);
      const reqNote = cat.has.subjectReqPartial
        ? `按 ${Y} 年公布的选科要求（${publishedRequirements().year === Y ? '该年投档表自带' : `${publishedRequirements().year} 年同一专业的要求代替`}，已知 ${cat.entries.filter((e) => e.subjectReq).length} 条）`
        : cat.has.subjectReq
          ? `${cat.year} 年目录带选科要求`
          : `${cat.year} 年目录不含选科要求`;
      setup.push(`${Y}: 按 ${cat.year} 年目录 ${cat.entries.length} 条规划；${modelNote}；${reqNote}`);
      console.log(`\n== ${Y}：${setup[setup.length - 1]}`);
      const p0 = performance.now();
      for (const m of MODES) {
        setAsOf(m.key === 'asof' ? Y - 1 : null);
        planned.push(...(await planYear(k, actor, m.key, Y)));
      }
      setAsOf(null);
      planMs += performance.now() - p0;
    }
    // Pass 2: every year loaded; each plan replayed on its year's lines (the catalogue as of Y joins them).
    const r0 = performance.now();
    await seedShandongHistory(k);
    loadMs += performance.now() - r0;
    const newest = await requireCatalogue(k, SHANDONG);
    console.log(
      `\n选科要求：${newest.has.subjectReq ? `${newest.year} 年投档表自带；更早年份用 ${newest.year} 年同一专业的要求代替（近似）` : '数据不含选科要求，无法检查'}`,
    );
    for (const Y of targets) {
      setAsOf(Y);
      const catY = await requireCatalogue(k, SHANDONG);
      setAsOf(null);
      if (catY.year !== Y) throw new Error(`${Y} 年的投档线没有导入（截至 ${Y} 年的目录年份是 ${catY.year}）`);
      setup[targets.indexOf(Y)] += `；${Y} 年投档线 ${catY.entries.length} 条`;
      const yearRows = replayYear(
        planned.filter((p) => p.year === Y),
        catY,
        newest,
      );
      rows.push(...yearRows);
      for (const m of MODES) {
        const mine = yearRows.filter((r) => r.mode === m.key);
        const p = summarise(mine.map((r) => r.product));
        const n = summarise(mine.map((r) => r.naive));
        const line = (who: string, s: ReplaySummary) =>
          `${Y} ${m.label} ${who}：死志愿 ${pct(s.deadShare)}，选科不符 ${s.violations}，滑档 ${s.slides}/${s.plans}，落点中位 ${num(s.landingMedian, 1)}，浪费中位 ${num(s.wasteMedian)} p90 ${num(s.wasteP90)}`;
        console.log(line('智能填报', p));
        console.log(line('朴素方案', n));
      }
    }
  } finally {
    setAsOf(null);
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const totalMs = performance.now() - t0;
  const md = report(rows, targets, setup, { totalMs, loadMs, planMs });
  fs.writeFileSync(out, md);
  const csv = argValue('--csv');
  if (csv) fs.writeFileSync(csv, csvOf(rows));
  console.log(`\n${md}`);
  console.log(`已写入 ${out}；用时 ${(totalMs / 1000).toFixed(1)} s`);
}

/** One line per student, mode and planner, for looking into a figure. */
function csvOf(rows: Row[]): string {
  const head = 'mode,year,combo,rank,score,serverRank,best,planner,choices,dead,violations,landedAt,landedRank,waste,tier';
  const lines = rows.flatMap((r) =>
    (['product', 'naive'] as const).map((who) => {
      const o = r[who];
      const tier = who === 'product' ? (r.productTier ?? '') : '';
      return [
        r.mode,
        r.year,
        r.combo,
        r.rank,
        r.score,
        r.serverRank ?? '',
        r.best ?? '',
        who,
        o.choices,
        o.dead,
        o.violations,
        o.landedAt ?? '',
        o.landedRank ?? '',
        o.waste?.toFixed(4) ?? '',
        tier,
      ].join(',');
    }),
  );
  return `${[head, ...lines].join('\n')}\n`;
}

function summaryRow(label: string, who: string, s: ReplaySummary): string {
  return `| ${label} | ${who} | ${s.plans} | ${s.choices} | ${pct(s.deadShare)} | ${s.violations} (${s.plansWithViolation}) | ${s.slides} (${pct(s.slideShare)}) | ${num(s.landingMedian, 1)} | ${num(s.wasteMedian)} | ${num(s.wasteP90)} |`;
}

function report(rows: Row[], targets: number[], setup: string[], time: { totalMs: number; loadMs: number; planMs: number }): string {
  const cpus = os.cpus();
  const autofill = rows.map((r) => r.autofillMs);
  const L: string[] = [];
  const date = new Date().toISOString().slice(0, 10);
  const pooledLabel = `pooled ${targets[0]}–${targets[targets.length - 1]}`;
  L.push(`### Replay of past years: the auto-fill against a naive planner (\`npm run replay\`, ${date})`);
  L.push('');
  L.push(
    `Machine: ${cpus.length} × ${cpus[0]?.model ?? '?'}, Node ${process.version}, SQLite in a temporary folder. Whole run ${(time.totalMs / 1000).toFixed(0)} s ` +
      `(loading the years ${(time.loadMs / 1000).toFixed(0)} s, planning ${(time.planMs / 1000).toFixed(0)} s; auto-fill per student p50 ${quantile(autofill, 0.5).toFixed(0)} ms, p90 ${quantile(autofill, 0.9).toFixed(0)} ms).`,
  );
  L.push('');
  L.push(
    `For each year Y the server plans before Y's lines exist (catalogue = Y−1's lines, the model of the newest as-of year ≤ Y−1) ` +
      `for ${RANKS.length} ranks (${RANKS.map((r) => `${r / 1000}k`).join(', ')}) × ${COMBOS.length} subject combinations (${COMBOS.map(comboName).join(', ')}); ` +
      "the student of rank r scored what rank r scored in Y's 一分一段表. Default preferences, the default auto-fill as the service answers it (by landing: engine/optimise.ts, 冲 floor 15 %, 滑档 target 0.5 %, 3 per school). " +
      "**A** is what happens in June: the 一分一段表 is published with the scores, so the server (lines up to Y−1, tables up to Y) ranks the score in Y's table. " +
      "**B** is `ADMISSION_AS_OF=Y−1`: the server ranks the score in Y−1's table, and the scores of two years are not on one scale (662 points were rank 2,000 in 2023 and rank 452 in 2022), " +
      'so B measures that conversion as much as the plan. ' +
      "Each plan is replayed on Y's real lines: a choice's Y line is its programme's (same school, line identity); none = dead. " +
      "Parallel 投档: the first live choice whose Y min rank ≥ the student's rank admits; none = 滑档. A choice whose Y requirement the student lacks is a subject violation and never admits. " +
      "**Landing waste** = admitted line's Y min rank ÷ the best Y line the student could have entered − 1, the best being the smallest Y min rank ≥ the student's rank among Y's lines the student may fill " +
      '(subjects allowed, an unknown requirement counted as allowed; no 专项/定向/公费师范/预科/民族班): 0 is the best line open to the student in hindsight. ' +
      "**Naive planner**: 96 of Y−1's lines the server lets the student fill, spread evenly in log rank over 0.8 r – 2.5 r of the rank the server gave, most selective first.",
  );
  L.push('');
  L.push(
    'Subject requirements: only the 2026 投档表 prints them. Requirements are published in spring with the 招生计划, before families fill, so both planners of year Y ' +
      "know Y's requirements (catalogue.ts applyTargetRequirements): for 2026 the year's own, for earlier years the 2026 requirement of the same programme (**proxy**; " +
      'Shandong tightened many requirements for 2024, so before 2024 it is stricter than the year was). The check uses the same table, so the planners and the check agree. ' +
      'A programme without a 2026 line has no requirement there: it stays fillable and unchecked (excluding it would tell the planners which programmes survive to 2026). ' +
      "The same rule makes dead choices more common than the data's own 14–18 %: the requirement filter removes only survivors (those with a known requirement) the student may not fill.",
  );
  L.push('');
  for (const s of setup) L.push(`- ${s}`);
  for (const m of MODES) {
    const mine = rows.filter((r) => r.mode === m.key);
    L.push('');
    L.push(`#### ${m.title}`);
    L.push('');
    L.push('| year | planner | plans | choices | dead choices | subject violations (plans) | 滑档 | landing choice (median) | waste median | waste p90 |');
    L.push('| ---- | ------- | ----: | ------: | -----------: | -------------------------: | ---: | ----------------------: | -----------: | --------: |');
    const groups: Array<{ label: string; rows: Row[] }> = targets.map((y) => ({ label: String(y), rows: mine.filter((r) => r.year === y) }));
    if (targets.length > 1) groups.push({ label: pooledLabel, rows: mine });
    for (const g of groups) {
      L.push(summaryRow(g.label, 'auto-fill', summarise(g.rows.map((r) => r.product))));
      L.push(summaryRow(g.label, 'naive', summarise(g.rows.map((r) => r.naive))));
    }
    L.push('');
    L.push(`By student rank, ${pooledLabel} and every subject combination (auto-fill / naive):`);
    L.push('');
    L.push('| rank | dead choices | violations | 滑档 | landing choice (median) | waste median | waste p90 | auto-fill landed in 冲 / 稳 / 保 |');
    L.push('| ---: | -----------: | ---------: | ---: | ----------------------: | -----------: | --------: | -------------------------------: |');
    for (const rank of RANKS) {
      const rs = mine.filter((r) => r.rank === rank);
      const p = summarise(rs.map((r) => r.product));
      const n = summarise(rs.map((r) => r.naive));
      const tiers = ['冲', '稳', '保'].map((t) => rs.filter((r) => r.productTier === t).length).join(' / ');
      L.push(
        `| ${rank.toLocaleString('en-US')} | ${pct(p.deadShare)} / ${pct(n.deadShare)} | ${p.violations} / ${n.violations} | ${p.slides} / ${n.slides} | ${num(p.landingMedian, 1)} / ${num(n.landingMedian, 1)} | ${num(p.wasteMedian)} / ${num(n.wasteMedian)} | ${num(p.wasteP90)} / ${num(n.wasteP90)} | ${tiers} |`,
      );
    }
    const short = mine.filter((r) => r.productItems < 96).length;
    if (short) {
      L.push('');
      L.push(`${short} of ${mine.length} auto-fill plans had fewer than 96 choices (the service reported a shortfall).`);
    }
  }
  L.push('');
  L.push(
    "Requirement behind each live auto-fill choice's subject check, A and B together (own = Y's 投档表, proxy = 2026's of the same programme, none = unchecked):",
  );
  L.push('');
  L.push('| year | own | proxy | none |');
  L.push('| ---- | --: | ----: | ---: |');
  for (const y of targets) {
    const c = rows
      .filter((r) => r.year === y)
      .reduce((a, r) => ({ own: a.own + r.checked.own, proxy: a.proxy + r.checked.proxy, none: a.none + r.checked.none }), { own: 0, proxy: 0, none: 0 });
    L.push(`| ${y} | ${c.own} | ${c.proxy} | ${c.none} |`);
  }
  L.push('');
  return `${L.join('\n')}\n`;
}

await main();
