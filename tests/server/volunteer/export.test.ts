import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHANDONG } from '../../../server/db/seed/admission.js';
import { type Catalogue, requireCatalogue } from '../../../server/volunteer/catalogue.js';
import { FEE_UNKNOWN, feeInName, figureText } from '../../../server/volunteer/choiceSheet.js';
import { HISTORY_DIR } from '../../../server/volunteer/import/history.js';
import { backends, startServer, type TestServer } from '../harness.js';
import { api, type ChanceRowT, loginAll, ok, studentId, type Tokens } from './helpers.js';

const URL_IMPORT = '/dev-api/volunteer/admission/import';
const read = (name: string) => fs.readFileSync(new URL(name, HISTORY_DIR), 'utf8');
/** The header and the first n data rows of a bundled file. */
const head = (name: string, n: number) =>
  read(name)
    .split('\n')
    .slice(0, n + 1)
    .join('\n');
const thousands = (n: number) => n.toLocaleString('en-US');
/** Text without any whitespace: pdftotext wraps cells where it likes. */
const flat = (s: string) => s.replace(/\s+/g, '');

interface PlanItemT {
  sort: number;
  lineId: number;
  schoolCode: string;
  schoolName: string | null;
  majorName: string | null;
}

/**
 * What a family reads and types into the official system (issue 23 item 6): the PDF, the Excel workbook, the share
 * page and the plan report name the exam year they fill (the catalogue year + 1), list each choice's 院校代码 and
 * 专业代号 of the catalogue year, its 选科要求, 办学性质 and fee note, carry a year beside every line figure and the
 * exam year beside every estimate, and print a choice that left the catalogue as 失效 with its reason.
 *
 * The demo seed holds one year of lines without 专业代号; the test loads that same year's 投档表, the school list
 * (办学性质) and the subject table through the administrator's import, and one older year's first rows so that a
 * plan can hold a line that is not in the catalogue. Years are read from the catalogue, never written here.
 */
describe.each(backends)('plan exports on %s', (backend) => {
  let s: TestServer;
  let t: Tokens;
  let wang: number;
  let cat: Catalogue;
  let items: PlanItemT[];
  /** The item whose line is not in the catalogue year. */
  let staleItem: PlanItemT;

  beforeAll(async () => {
    s = await startServer(backend);
    t = await loginAll(s);
    wang = await studentId(s, '王五');
    const seeded = await requireCatalogue(s.app.db.kysely, SHANDONG);
    const year = seeded.year;
    const older = year - 1;
    const imports: Array<Record<string, unknown>> = [
      { kind: 'schools', csv: read('schools.csv') },
      { kind: 'lines', year, csv: read(`toudang-${year}.csv`) },
      { kind: 'subjects', csv: read('subject-requirements-2026.csv') },
      { kind: 'rankTable', year: older, csv: read(`rank-table-${older}.csv`) },
      { kind: 'lines', year: older, csv: head(`toudang-${older}.csv`, 400) },
    ];
    for (const body of imports) {
      const res = await api(s, t.admin, URL_IMPORT, { province: SHANDONG, ...body });
      expect(res.code, `${body.kind}: ${res.msg}`).toBe(200);
    }
    cat = await requireCatalogue(s.app.db.kysely, SHANDONG);
    expect(cat.year).toBe(year);

    // Choices 王五 may fill, from the acceptance list: a 中外合作 line, a line of a 民办 school, and ordinary ones.
    const chance = async (body: Record<string, unknown>) =>
      (
        await s.call('POST', '/appv2/api/Filling/schoolEnrollChance', {
          token: t.expert,
          body: { studentId: wang, includeUnreachable: 1, all: 1, explain: 0, ...body },
        })
      ).body as unknown as { rows: ChanceRowT[] };
    const entryOf = (r: ChanceRowT) => cat.entries[cat.byLineId.get(r.lineId) as number];
    const sino = (await chance({ planType: '中外合作' })).rows.find((r) => entryOf(r).school.ownership !== '民办');
    const privately = (await chance({ isPublic: 0 })).rows.find((r) => entryOf(r).school.ownership === '民办' && !entryOf(r).planTags.includes('中外合作'));
    const ordinary = (await chance({ planType: '普通' })).rows.filter((r) => entryOf(r).school.ownership === '公办').slice(0, 4);
    expect(sino, 'a 中外合作 line').toBeDefined();
    expect(privately, 'a line of a 民办 school').toBeDefined();
    const picks = [...ordinary, sino, privately].map((r) => (r as ChanceRowT).lineId);
    const before = await ok<{ plan: { version: number } | null }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: wang });
    const saved = await api(s, t.expert, '/appv2/api/index/zySave', {
      studentId: wang,
      version: before.plan?.version ?? 0,
      items: picks.map((lineId) => ({ lineId })),
    });
    expect(saved.code, saved.msg).toBe(200);

    // A plan saved before its line left the catalogue: the older year's line of a programme not offered now.
    const [retiredId, retired] = [...cat.retired.entries()].find(([, r]) => r.year === older) ?? [];
    expect(retired, 'an older line not in the catalogue year').toBeDefined();
    const line = await s.app.db.kysely
      .selectFrom('gkAdmissionLine')
      .selectAll()
      .where('lineId', '=', retiredId as number)
      .executeTakeFirstOrThrow();
    const plan = await s.app.db.kysely.selectFrom('volPlan').select('planId').where('studentId', '=', wang).executeTakeFirstOrThrow();
    await s.app.db.kysely
      .updateTable('volPlanItem')
      .set({
        lineId: line.lineId,
        schoolCode: line.schoolCode,
        schoolName: retired?.schoolName ?? null,
        majorName: line.majorName,
        minScore: line.minScore,
        minRank: line.minRank,
      })
      .where('planId', '=', plan.planId)
      .where('sort', '=', 2)
      .execute();
    items = (await ok<{ items: PlanItemT[] }>(s, t.expert, '/appv2/api/index/zyInfo', { studentId: wang })).items;
    staleItem = items[1];
    expect(staleItem.lineId).toBe(line.lineId);
  }, 240_000);
  afterAll(async () => {
    await s?.close();
  });

  const offered = () => items.filter((i) => i !== staleItem);
  const entry = (i: PlanItemT) => cat.entries[cat.byLineId.get(i.lineId) as number];
  const figure = (y: { year: number; minScore: number; minRank: number | null }) =>
    `${y.year} · ${y.minScore}分 · ${y.minRank == null ? '位次未公布' : `${thousands(y.minRank)}名`}`;
  const staleReason = () => `该志愿不在${cat.year}年招生目录中`;

  /** Every "581分 · 29,348名" has a year before it, and every estimate the exam year. */
  function yearsBesideFigures(text: string) {
    const t0 = flat(text);
    const figures = t0.match(/\d+分·(?:[\d,]+名|位次未公布)/g) ?? [];
    const dated = [...t0.matchAll(/(\d{4})·\d+分·(?:[\d,]+名|位次未公布)/g)];
    expect(figures.length).toBeGreaterThan(0);
    expect(dated).toHaveLength(figures.length);
    for (const m of dated) expect(cat.years).toContain(Number(m[1]));
    const estimates = t0.match(/(录取概率[\d.]+%|估计位次[\d,]+)/g) ?? [];
    const datedEstimates = t0.match(new RegExp(`${cat.targetYear}(录取概率[\\d.]+%|估计位次[\\d,]+)`, 'g')) ?? [];
    expect(estimates.length).toBeGreaterThan(0);
    expect(datedEstimates).toHaveLength(estimates.length);
  }

  /** What every export says about each choice. */
  function choicesIn(text: string) {
    const t0 = flat(text);
    for (const i of offered()) {
      const e = entry(i);
      expect(e.majorCode, `${e.school.name} ${e.majorName}: 专业代号`).not.toBeNull();
      expect(t0).toContain(flat(`院校代码 ${e.school.schoolCode}`));
      expect(t0).toContain(flat(`专业代号 ${e.majorCode}`));
      expect(t0).toContain(flat(figure(e.years[0])));
      expect(e.years[0].year).toBe(cat.year);
    }
    const sino = offered().find((i) => entry(i).planTags.includes('中外合作')) as PlanItemT;
    const privately = offered().find((i) => entry(i).school.ownership === '民办') as PlanItemT;
    expect(sino && privately).toBeTruthy();
    expect(t0).toContain('中外合作办学');
    expect(t0).toContain('民办');
    expect(t0).toContain('学费较高，以招生章程为准');
    // The 失效 choice: marked, with its reason, and its figures with their own (older) year.
    expect(t0).toContain('失效');
    expect(t0).toContain(flat(staleReason()));
    expect(t0).toContain(flat(`院校代码 ${staleItem.schoolCode}`));
  }

  it('prints the PDF for the exam year: codes, rules and a year beside every figure; 失效 with its reason', async () => {
    const pdf = await s.call('POST', '/appv2/api/index/downloadZYpdf', { token: t.expert, body: { studentId: wang } });
    expect(pdf.status).toBe(200);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf.rawBuffer }).toString('utf8');
    const t0 = flat(text);
    expect(t0).toContain(`${cat.targetYear}年高考志愿方案`);
    expect(t0).toContain(`高考年份：${cat.targetYear}`);
    expect(t0).not.toContain(`高考年份：${cat.year}`);
    choicesIn(text);
    yearsBesideFigures(text);
    // Subject requirements: the catalogue-year line's own, or 选科要求未知.
    for (const i of offered()) expect(t0).toContain(flat(entry(i).subjectReq || '选科要求未知'));
  });

  it('prints the whole plan simulated: P(录取) and P(滑档) for the exam year, and each choice’s 落点概率', async () => {
    const report = await ok<{
      simulation: { year: number; admitted: number; slide: number; text: string; choices: Array<{ sort: number; landing: number; simulated: boolean }> } | null;
    }>(s, t.expert, '/dev-api/api/Subscriber/report', { studentId: wang });
    const sim = report.simulation;
    expect(sim, 'the plan report simulates 王五’s plan').not.toBeNull();
    if (!sim) return;
    expect(sim.year).toBe(cat.targetYear);
    const pct = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;
    const share = (p: number) => (p < 0.001 ? '<0.1%' : pct(p));
    const pdf = await s.call('POST', '/appv2/api/index/downloadZYpdf', { token: t.expert, body: { studentId: wang } });
    const t0 = flat(execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf.rawBuffer }).toString('utf8'));
    // The figures the report shows, with the exam year they are for.
    expect(t0).toContain(flat(`按${cat.targetYear}年模拟`));
    expect(t0).toContain(`被录取的概率${pct(sim.admitted)}`);
    expect(t0).toContain(`滑档${pct(sim.slide)}`);
    // One 落点概率 per simulated choice (the 失效 one is not), each the report's figure with the exam year.
    const simulated = sim.choices.filter((c) => c.simulated);
    expect(simulated.length).toBe(items.length - 1);
    expect(sim.choices.find((c) => c.sort === staleItem.sort)?.simulated).toBe(false);
    const printed = [...t0.matchAll(new RegExp(`${cat.targetYear}落点概率(<0\\.1%|[\\d.]+%)`, 'g'))].map((m) => m[1]);
    expect(printed.sort()).toEqual(simulated.map((c) => share(c.landing)).sort());
    expect(t0.match(/落点概率/g)?.length).toBe(simulated.length + 1); // and once in the note that explains it

    const xlsx = await s.call('POST', '/dev-api/api/Subscriber/exportZY', { token: t.expert, body: { studentId: wang } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawBuffer as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('志愿方案') as ExcelJS.Worksheet;
    expect(String(ws.getCell('A3').value)).toContain(`被录取的概率 ${pct(sim.admitted)}，滑档 ${pct(sim.slide)}`);
    const header = (ws.getRow(4).values as unknown[]).slice(1).map(String);
    const col = header.indexOf(`${cat.targetYear}年落点概率（模拟）`) + 1;
    expect(col).toBeGreaterThan(0);
    items.forEach((i, n) => {
      const c = sim.choices.find((x) => x.sort === i.sort);
      expect(ws.getRow(5 + n).getCell(col).value ?? '').toBe(c?.simulated ? share(c.landing) : '');
    });
  });

  it('writes the same into the Excel workbook: codes, the year of each figure, the exam year of each estimate', async () => {
    const xlsx = await s.call('POST', '/dev-api/api/Subscriber/exportZY', { token: t.expert, body: { studentId: wang } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawBuffer as unknown as ArrayBuffer);
    const ws = wb.getWorksheet('志愿方案') as ExcelJS.Worksheet;
    expect(ws).toBeDefined();
    expect(String(ws.getCell('A1').value)).toContain(`${cat.targetYear}年高考志愿方案`);
    const header = (ws.getRow(4).values as unknown[]).slice(1).map(String);
    const col = (title: string) => header.indexOf(title) + 1;
    expect(header).toContain(`${cat.targetYear}年录取概率（估计）`);
    expect(header).toContain(`${cat.targetYear}年估计位次`);
    expect(col('投档线年份')).toBe(col('最低分') - 1);
    items.forEach((i, n) => {
      const row = ws.getRow(5 + n);
      const cell = (title: string) => row.getCell(col(title)).value;
      expect(cell('序号')).toBe(i.sort);
      expect(cell('院校代码')).toBe(i.schoolCode);
      if (i === staleItem) {
        expect(cell('梯度')).toBe('失效');
        expect(String(cell('说明'))).toContain(staleReason());
        expect(cell('投档线年份')).toBe(cat.year - 1);
        return;
      }
      const e = entry(i);
      expect(cell('专业代号')).toBe(e.majorCode);
      expect(cell('投档线年份')).toBe(e.years[0].year);
      expect(cell('最低分')).toBe(e.years[0].minScore);
      expect(cell('最低位次')).toBe(e.years[0].minRank);
      expect(String(cell('历年投档线（年份 · 最低分 · 最低位次）'))).toContain(figure(e.years[0]));
      expect(cell('选科要求')).toBe(e.subjectReq || '选科要求未知');
    });
  });

  it('shows the same on the share page a family opens', async () => {
    const link = await ok<{ url: string }>(s, t.expert, '/appv2/api/index/shareZY', { studentId: wang, expireHours: 2 });
    const page = await s.call('GET', link.url, { sign: false });
    expect(page.status).toBe(200);
    const text = page.raw.replace(/<br>/g, '\n').replace(/<[^>]+>/g, ' ');
    expect(text).toContain(`王五 的${cat.targetYear}年高考志愿方案（只读）`);
    expect(text).toContain(`高考年份：${cat.targetYear}`);
    expect(text).not.toContain(`高考年份：${cat.year}`);
    choicesIn(text);
    yearsBesideFigures(text);
  });

  it('names the years in the plan report: the figures beside their year, 失效 as a risk', async () => {
    const report = await ok<{
      year: number;
      targetYear: number;
      summary: string;
      risks: string[];
      items: Array<
        PlanItemT & {
          year: number | null;
          figureText: string | null;
          majorCode: string | null;
          stale: boolean;
          staleReason: string | null;
          estimateText: string;
        }
      >;
    }>(s, t.expert, '/dev-api/api/Subscriber/report', { studentId: wang });
    expect(report.year).toBe(cat.year);
    expect(report.targetYear).toBe(cat.targetYear);
    expect(report.summary.startsWith(`${cat.targetYear}年高考`)).toBe(true);
    expect(report.risks.some((r) => r.includes('失效') && r.includes(staleReason()))).toBe(true);
    for (const i of report.items) {
      if (i.lineId === staleItem.lineId) {
        expect(i.stale).toBe(true);
        expect(i.year).toBe(cat.year - 1);
        expect(i.staleReason).toContain(staleReason());
        continue;
      }
      const e = entry(i);
      expect(i.stale).toBe(false);
      expect(i.year).toBe(cat.year);
      expect(i.majorCode).toBe(e.majorCode);
      expect(i.figureText).toBe(figure(e.years[0]));
      expect(i.estimateText.startsWith(`${cat.targetYear} `)).toBe(true);
    }
  });
});

describe('choice sheet texts', () => {
  it('reads a fee the data prints in the name, and writes every figure with its year', () => {
    // Real 投档表 names: 香港珠海学院 prints its fee; an ordinary line and a 中外合作 one do not.
    expect(feeInName('文学与社会科学院(学费每年104750港元)')).toBe('学费每年104750港元');
    expect(feeInName('工科试验班类(中外合作办学，中法未来科技试验班)')).toBeNull();
    expect(feeInName('英语(多元方向)')).toBeNull();
    expect(FEE_UNKNOWN).toBe('学费较高，以招生章程为准');
    expect(figureText(2026, 581, 29348)).toBe('2026 · 581分 · 29,348名');
    expect(figureText(2026, 581, null)).toBe('2026 · 581分 · 位次未公布');
  });
});
