import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caution } from '../../../common/volunteer/cautions.js';
import { parseCsv } from '../../../server/db/seed/admission.js';
import { type Catalogue, rankOf, requireCatalogue } from '../../../server/volunteer/catalogue.js';
import { cautionRisks, FEE_UNKNOWN, feeInName, lineCautions, VOLATILE_RATIO } from '../../../server/volunteer/cautions.js';
import { refusalOf } from '../../../server/volunteer/eligibility.js';
import { HISTORY_DIR, seedShandongHistory } from '../../../server/volunteer/import/history.js';
import { startServer, type TestServer } from '../harness.js';
import { loginAll, ok, type Tokens } from './helpers.js';

/**
 * Issue 24 item 3 on the real Shandong 2021–2026 lines (loaded through the product's own import): each choice says
 * what its probability does not — a line whose own ranks jumped between two years, a plan of one or two places, a
 * 中外合作办学 / 民办 fee, a 军队/公安 school's 政审/军检/面试, an unknown 选科要求 — in the plan report (per choice, and
 * one risk line per kind), the PDF, the Excel workbook and the share page. Expected texts are the data's own figures.
 */

/** Text without any whitespace: pdftotext wraps cells where it likes. */
const flat = (s: string) => s.replace(/\s+/g, '');

const VOLATILE_TEXT = '位次波动大：2022年 13,251名 → 2023年 25,607名，录取概率参考性较弱';
const MILITARY_TEXT = '军队/公安院校：需政审、体检（军检）和面试，以招生章程为准';

describe('per-line cautions (real Shandong 2021–2026)', () => {
  let s: TestServer;
  let t: Tokens;
  let cat: Catalogue;
  const idxOf = (schoolName: string, majorName: string) => {
    const i = cat.entries.findIndex((e) => e.school.name === schoolName && e.majorName === majorName);
    expect(i, `${schoolName} ${majorName} in the ${cat.year} catalogue`).toBeGreaterThanOrEqual(0);
    return i;
  };
  const cautionsOf = (schoolName: string, majorName: string) => lineCautions(cat, idxOf(schoolName, majorName));

  beforeAll(async () => {
    s = await startServer('sqlite');
    await seedShandongHistory(s.app.db.kysely);
    t = await loginAll(s);
    cat = await requireCatalogue(s.app.db.kysely, '山东');
    expect(cat.year).toBe(2026);
  }, 240_000);
  afterAll(async () => {
    await s?.close();
  });

  it('warns of a line whose own rank moved a lot between two consecutive years, naming both years and ranks', () => {
    // 北京工业大学 建筑学: 12,775 (2021) · 13,251 (2022) · 25,607 (2023) · 35,751 · 38,102 · 36,909 (2026): the ×1.93 jump is named.
    expect(cautionsOf('北京工业大学', '建筑学')).toEqual([{ kind: 'volatile', text: VOLATILE_TEXT }]);
    // 宁波诺丁汉 国际商务 moved at most ×1.17 a year: no volatility warning.
    expect(cautionsOf('宁波诺丁汉大学', '国际商务(中外合作办学)').map((c) => c.kind)).not.toContain('volatile');
    // The threshold flags about the top 5 % of programmes by their largest move (measured: 4.3 % of the catalogue).
    const flagged = cat.entries.filter((_, i) => lineCautions(cat, i).some((c) => c.kind === 'volatile')).length;
    expect(VOLATILE_RATIO).toBe(1.5);
    expect(flagged / cat.entries.length).toBeGreaterThan(0.03);
    expect(flagged / cat.entries.length).toBeLessThan(0.06);
  });

  it('names the newest year with a plan count for a line of one or two places (the 2026 投档表 publishes none)', () => {
    const i = idxOf('北方工业大学', '法学(菁英班)');
    expect(cat.entries[i].years[0]).toMatchObject({ year: 2026, planCount: null });
    expect(lineCautions(cat, i)).toEqual([{ kind: 'single-place', text: '2025年仅招 1 人，波动大' }]);
    expect(cautionsOf('北方工业大学', '法学')).toEqual([{ kind: 'single-place', text: '2025年仅招 2 人，波动大' }]);
    // 2025: 3 places — not a single-place line.
    expect(cautionsOf('北京工业大学', '建筑学').map((c) => c.kind)).not.toContain('single-place');
  });

  it('notes the fee of a 中外合作办学 or 民办 line, and the fee the line prints when it does', () => {
    expect(cautionsOf('宁波诺丁汉大学', '国际商务(中外合作办学)')).toEqual([{ kind: 'fee', text: `中外合作办学，${FEE_UNKNOWN}` }]);
    expect(cautionsOf('广东白云学院', '会计学')).toEqual([{ kind: 'fee', text: `民办院校，${FEE_UNKNOWN}` }]);
    const printed = cat.entries.findIndex((e) => feeInName(e.majorName) != null);
    expect(printed, 'a line printing its fee').toBeGreaterThanOrEqual(0);
    const fee = lineCautions(cat, printed).find((c) => c.kind === 'fee');
    expect(fee?.text).toContain(`${feeInName(cat.entries[printed].majorName)}，以招生章程为准`);
    // A 公办 line of an ordinary programme pays the ordinary fee: no note.
    expect(cautionsOf('北方工业大学', '法学').map((c) => c.kind)).not.toContain('fee');
  });

  it('flags every 军队/公安 school of the data, and no other school', () => {
    const flagged = new Set(cat.entries.filter((_, i) => lineCautions(cat, i).some((c) => c.kind === 'military-police')).map((e) => e.school.name));
    expect([...flagged].sort()).toEqual(
      [
        '国防科技大学',
        '陆军工程大学',
        '海军军医大学',
        '空军军医大学',
        '中国人民公安大学',
        '中国人民警察大学',
        '湖北警官学院',
        '云南警官学院',
        '吉林警察学院',
        '贵州警察学院',
        '新疆警察学院',
        '陕西警察学院',
        '江苏警官学院',
      ]
        .filter((n) => cat.entries.some((e) => e.school.name === n))
        .sort(),
    );
    expect(flagged.size).toBeGreaterThanOrEqual(10);
    expect(cautionsOf('中国人民警察大学', '消防指挥')).toEqual([{ kind: 'military-police', text: MILITARY_TEXT }]);
    // The school list's 主管部门 (公安部, 中央军委 …) is not in the catalogue: every such school must be caught by its name.
    const schools = parseCsv(fs.readFileSync(new URL('schools.csv', HISTORY_DIR), 'utf8'));
    const byAuthority = schools.filter((r) => /公安部|军委/.test(r.authority ?? '')).map((r) => r.name);
    expect(byAuthority.length).toBeGreaterThan(0);
    for (const name of byAuthority) if (cat.entries.some((e) => e.school.name === name)) expect(flagged).toContain(name);
    expect(flagged.has('南京信息工程大学')).toBe(false);
  });

  it('says so when the line’s 选科要求 is unknown while the data has requirements', () => {
    const i = idxOf('北方工业大学', '法学');
    const unknown = { ...cat.entries[i], subjectReq: null };
    const entries = [...cat.entries];
    entries[i] = unknown;
    expect(lineCautions({ ...cat, entries }, i)).toContainEqual({ kind: 'subject-unknown', text: '选科要求未知，请核对招生章程' });
    // A data set without any requirement says so once, not on every line.
    expect(lineCautions({ ...cat, entries, has: { ...cat.has, subjectReq: false } }, i).map((c) => c.kind)).not.toContain('subject-unknown');
  });

  it('sums the cautions into one risk line per kind with the choices concerned', () => {
    const c = (kind: Caution['kind'], text: string): Caution => ({ kind, text });
    const risks = cautionRisks([
      { sort: 5, cautions: [c('volatile', VOLATILE_TEXT)] },
      { sort: 12, cautions: [c('volatile', VOLATILE_TEXT), c('single-place', '2025年仅招 1 人，波动大')] },
      { sort: 40, cautions: [c('volatile', VOLATILE_TEXT)] },
      { sort: 41, cautions: [] },
    ]);
    expect(risks).toHaveLength(2);
    expect(risks[0].startsWith('3 个志愿位次波动大（第5、12、40个）')).toBe(true);
    expect(risks[1].startsWith('1 个志愿招生人数仅 1–2 人（第12个，2025年招生计划）')).toBe(true);
    const many = cautionRisks(Array.from({ length: 12 }, (_, k) => ({ sort: k + 1, cautions: [c('military-police', MILITARY_TEXT)] })));
    expect(many[0].startsWith('12 个志愿为军队/公安院校（第1、2、3、4、5、6、7、8、9、10等个）')).toBe(true);
  });

  describe('in a saved plan', () => {
    let studentId: number;
    /** Plan order: volatile, single-place (1), 中外合作, 军队/公安 + single-place (2), then ordinary lines. */
    let picks: number[];
    let ordinary: number[];

    beforeAll(async () => {
      // A 物化生 student near rank 30,000 of the newest table.
      const score = Array.from({ length: 300 }, (_, k) => 700 - k).find((sc) => (rankOf(cat, sc)?.rank ?? 0) >= 30_000) as number;
      studentId = (await ok<{ studentId: number }>(s, t.expert, '/dev-api/api/Subscriber/add', { name: '提示学生', score, subjects: [1, 2, 3] })).studentId;
      const row = await s.app.db.kysely.selectFrom('volStudent').selectAll().where('studentId', '=', studentId).executeTakeFirstOrThrow();
      const named = [
        idxOf('北京工业大学', '建筑学'),
        idxOf('北方工业大学', '法学(菁英班)'),
        idxOf('宁波诺丁汉大学', '财务管理(中外合作办学)'),
        idxOf('中国人民警察大学', '电子信息工程(智慧消防方向)'),
      ];
      // Ordinary lines well below the student (no caution at all), from two schools: where the student lands.
      ordinary = [];
      for (const i of cat.rankOrder) {
        const e = cat.entries[i];
        const rank = e.years[0].minRank ?? 0;
        if (rank < 60_000 || rank > 90_000 || lineCautions(cat, i).length || refusalOf(cat, i, row, 1)) continue;
        if (ordinary.some((o) => cat.entries[o].school.schoolCode === e.school.schoolCode)) continue;
        ordinary.push(i);
        if (ordinary.length === 2) break;
      }
      expect(ordinary).toHaveLength(2);
      picks = [...named, ...ordinary];
      for (const [n, i] of picks.entries()) expect(refusalOf(cat, i, row, n + 1)).toBeNull();
      await ok(s, t.expert, '/appv2/api/index/zySave', { studentId, version: 0, items: picks.map((i) => ({ lineId: cat.entries[i].lineId })) });
    }, 120_000);

    it('lists each choice’s cautions in the plan report and one risk line per kind', async () => {
      const report = await ok<{ risks: string[]; summary: string; items: Array<{ sort: number; lineId: number; cautions: Caution[] }> }>(
        s,
        t.expert,
        '/dev-api/api/Subscriber/report',
        { studentId },
      );
      expect(report.items.map((i) => i.lineId)).toEqual(picks.map((i) => cat.entries[i].lineId));
      const kinds = report.items.map((i) => i.cautions.map((c) => c.kind));
      expect(kinds).toEqual([['volatile'], ['single-place'], ['fee'], ['single-place', 'military-police'], [], []]);
      expect(report.items[0].cautions[0].text).toBe(VOLATILE_TEXT);
      expect(report.items[1].cautions[0].text).toBe('2025年仅招 1 人，波动大');
      expect(report.items[2].cautions[0].text).toBe(`中外合作办学，${FEE_UNKNOWN}`);
      expect(report.items[3].cautions.map((c) => c.text)).toEqual(['2025年仅招 2 人，波动大', MILITARY_TEXT]);
      const has = (prefix: string) =>
        expect(
          report.risks.filter((r) => r.startsWith(prefix)),
          prefix,
        ).toHaveLength(1);
      has('1 个志愿位次波动大（第1个）');
      has('2 个志愿招生人数仅 1–2 人（第2、4个，2025年招生计划）');
      has('1 个志愿为中外合作办学或民办等学费较高的专业（第3个）');
      has('1 个志愿为军队/公安院校（第4个）');
      expect(report.risks.some((r) => r.includes('选科要求未知'))).toBe(false);
      expect(report.summary).toContain(`发现 ${report.risks.length} 项风险`);
    });

    it('prints a 提示 line under the choice in the PDF, the Excel workbook and the share page', async () => {
      const pdf = await s.call('POST', '/appv2/api/index/downloadZYpdf', { token: t.expert, body: { studentId } });
      expect(pdf.status).toBe(200);
      const text = flat(execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf.rawBuffer }).toString('utf8'));
      expect(text).toContain(flat(`提示：${VOLATILE_TEXT}`));
      expect(text).toContain(flat('提示：2025年仅招 1 人，波动大'));
      expect(text).toContain(flat(`提示：2025年仅招 2 人，波动大；${MILITARY_TEXT}`));
      // The fee is in its own column (办学性质 / 学费), not repeated as a 提示: three 提示 lines for four choices with cautions.
      expect(text.match(/提示：/g)).toHaveLength(3);
      expect(text).toContain(flat(FEE_UNKNOWN));

      const xlsx = await s.call('POST', '/dev-api/api/Subscriber/exportZY', { token: t.expert, body: { studentId } });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(xlsx.rawBuffer as unknown as ArrayBuffer);
      const ws = wb.getWorksheet('志愿方案') as ExcelJS.Worksheet;
      const header = (ws.getRow(4).values as unknown[]).slice(1).map(String);
      const hint = (n: number) => String(ws.getRow(5 + n).getCell(header.indexOf('提示') + 1).value ?? '');
      expect(header).toContain('提示');
      expect(hint(0)).toBe(VOLATILE_TEXT);
      expect(hint(2)).toBe('');
      expect(hint(3)).toBe(`2025年仅招 2 人，波动大；${MILITARY_TEXT}`);
      expect(hint(4)).toBe('');

      const link = await ok<{ url: string }>(s, t.expert, '/appv2/api/index/shareZY', { studentId, expireHours: 2 });
      const page = await s.call('GET', link.url, { sign: false });
      expect(page.status).toBe(200);
      const shared = page.raw.replace(/<[^>]+>/g, ' ');
      expect(shared).toContain(`提示：${VOLATILE_TEXT}`);
      expect(shared).toContain(`提示：2025年仅招 2 人，波动大；${MILITARY_TEXT}`);
    });
  });
});
