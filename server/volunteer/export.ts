import fs from 'node:fs';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import type { PlanSimulationView } from '../../common/volunteer/planSimulation.js';
import { fail } from '../http/envelope.js';
import { type ChoiceDetail, type ChoiceSheet, choiceSheet, estimateLines, examYearNote, hintLines, majorCodeText, studentRankText } from './choiceSheet.js';
import type { Actor, Db } from './common.js';
import { planInfo } from './plans.js';
import { savedPlanSimulation } from './review.js';

/**
 * Plan exports: a PDF (pdfkit with the system CJK font) and an Excel workbook (exceljs). The font path can be
 * changed (tests point it at a missing file to check the message).
 */
export const pdfFont = {
  path: process.env.VOLUNTEER_PDF_FONT || '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  /** The face inside the collection. */
  name: 'NotoSansCJKsc-Regular',
};

export const FONT_MISSING = '服务器缺少中文字体（Noto Sans CJK），无法生成 PDF，请安装 fonts-noto-cjk 后重试';

let fontCache: { path: string; data: Buffer } | null = null;
function fontData(): Buffer {
  if (fontCache?.path === pdfFont.path) return fontCache.data;
  let data: Buffer;
  try {
    data = fs.readFileSync(pdfFont.path);
  } catch {
    throw fail(FONT_MISSING);
  }
  fontCache = { path: pdfFont.path, data };
  return data;
}

type Info = Awaited<ReturnType<typeof planInfo>>;

async function exportable(db: Db, actor: Actor, studentId: unknown): Promise<Info> {
  const info = await planInfo(db, actor, studentId);
  if (!info.plan) throw fail('该学生还没有志愿方案');
  return info;
}

const two = (n: number) => String(n).padStart(2, '0');
function stamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

export interface ExportFile {
  filename: string;
  contentType: string;
  data: Buffer;
}

/**
 * The plan with the sheet every export prints (choiceSheet.ts): exam year, codes, rules and figures with their years,
 * and the whole plan simulated as the plan report does it (review.ts savedPlanSimulation): P(录取), P(滑档) and where
 * the student lands.
 */
async function exportSheet(db: Db, actor: Actor, studentId: unknown) {
  const info = await exportable(db, actor, studentId);
  const sheet = await choiceSheet(db, info.student, info.items);
  const simulation = await savedPlanSimulation(db, actor, studentId, info.items);
  return { info, sheet, simulation };
}

const pct1 = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/** A choice's 落点概率: the share of the simulated years the student is admitted there; null when it was not simulated. */
function landingShare(sim: PlanSimulationView | null, sort: number): string | null {
  const c = sim?.choices.find((x) => x.sort === sort);
  if (!sim || !c?.simulated) return null;
  // Below the simulation's idle mark (0.1 %) the figure is noise: say "below" rather than print 0.0%.
  return c.landing < 0.001 ? '<0.1%' : pct1(c.landing);
}

/** "2027 落点概率 12.3%" under the estimate, or null. */
function landingLine(sim: PlanSimulationView | null, sort: number): string | null {
  const share = landingShare(sim, sort);
  return sim && share ? `${sim.year} 落点概率 ${share}` : null;
}

/** Lines of the header every export starts with. */
function headerLines(info: Info, sheet: ChoiceSheet, simulation: PlanSimulationView | null): string[] {
  const s = info.student;
  const plan = info.plan as NonNullable<Info['plan']>;
  const stale = sheet.items.filter((i) => i.stale).length;
  const lines = [
    `考生：${s.name}    省份：${s.province}    高考年份：${sheet.targetYear}    选科：${s.subjectNames || '未填写'}`,
    `分数：${s.score ?? '未填写'}    位次：${studentRankText(s.rank, sheet.rankYear, s.rankFlag)}    方案状态：${plan.statusName}    版本：${plan.version}    志愿数：${sheet.items.length}`,
    sheet.catalogueYear != null
      ? `院校代码、专业代号按 ${sheet.catalogueYear} 年招生目录（${sheet.catalogueYear} 年投档表）；投档线每项标明年份；录取概率与估计位次为 ${sheet.targetYear} 年估计`
      : `录取概率为 ${sheet.targetYear} 年估计`,
  ];
  const note = examYearNote(s.examYear, sheet.targetYear);
  if (note) lines.push(note);
  if (stale) {
    const where = sheet.catalogueYear != null ? `（不在 ${sheet.catalogueYear} 年招生目录中）` : '';
    lines.push(`有 ${stale} 个志愿已失效${where}，正式填报前请替换`);
  }
  if (simulation) lines.push(`整体方案：${simulation.text}`);
  return lines;
}

const schoolCell = (i: ChoiceDetail) => `院校代码 ${i.schoolCode}\n${i.schoolName ?? ''}${i.groupCode ? ` 第${i.groupCode}组` : ''}`;
const majorCell = (i: ChoiceDetail) =>
  `专业代号 ${majorCodeText(i)}\n${i.majorName ?? ''}${i.obey ? '（服从调剂）' : ''}${i.stale ? `\n【失效】${i.staleReason ?? ''}` : ''}`;
/** The choice's 提示 (cautions no column already prints), or null. */
const hintText = (i: ChoiceDetail) => {
  const lines = hintLines(i);
  return lines.length ? `提示：${lines.join('；')}` : null;
};
const ownershipCell = (i: ChoiceDetail) => `${i.ownership ?? '办学性质未知'}${i.feeNote ? `\n${i.feeNote}` : ''}`;
/**
 * The plan as a PDF (A4 landscape): the exam year the family fills, and for each choice what they type into the
 * official system (院校代码, 专业代号 of the catalogue year), 选科要求, 办学性质 and fee, the line figures each with
 * its year, the estimate for the exam year, and 失效 with its reason.
 */
export async function planPdf(db: Db, actor: Actor, studentId: unknown): Promise<ExportFile> {
  const font = fontData();
  const { info, sheet, simulation } = await exportSheet(db, actor, studentId);
  const s = info.student;
  const plan = info.plan as NonNullable<Info['plan']>;
  const title = `${sheet.targetYear}年高考志愿方案`;
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    info: { Title: `${title}-${s.name}`, Author: '志愿填报管理系统' },
  });
  try {
    doc.registerFont('cjk', font, pdfFont.name);
  } catch {
    throw fail(FONT_MISSING);
  }
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.font('cjk');
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;

  doc.fontSize(18).text(`${s.name} 的${title}`, { align: 'center' });
  doc.moveDown(0.6);
  doc.fontSize(10);
  for (const l of headerLines(info, sheet, simulation)) doc.text(l);
  doc.text(`导出时间：${stamp(Date.now())}    负责专家：${s.ownerName ?? '未分配'}`);
  if (plan.reviewComment) doc.text(`审批意见：${plan.reviewComment}`);
  doc.moveDown(0.8);

  const fixed = [26, 128, 0, 70, 112, 120, 30, 112];
  const rest = width - fixed.reduce((a, b) => a + b, 0);
  const cols = [
    { title: '序号', w: fixed[0] },
    { title: '院校代码 / 院校', w: fixed[1] },
    { title: '专业代号 / 专业', w: rest },
    { title: '选科要求', w: fixed[3] },
    { title: '办学性质 / 学费', w: fixed[4] },
    { title: '历年投档线', w: fixed[5] },
    { title: '梯度', w: fixed[6] },
    { title: `${sheet.targetYear}年估计`, w: fixed[7] },
  ];
  const pad = 3;
  // The 提示 line runs under the choice's cells, from the second column to the edge, and stays on the choice's page.
  const noteX = left + cols[0].w;
  const noteW = width - cols[0].w - pad * 2;
  const NOTE_SIZE = 8;
  const drawRow = (cells: string[], header: boolean, stale = false, note: string | null = null) => {
    doc.fontSize(NOTE_SIZE);
    const noteH = note ? doc.heightOfString(note, { width: noteW }) + pad : 0;
    doc.fontSize(header ? 9 : 8.5);
    const heights = cells.map((c, i) => doc.heightOfString(c, { width: cols[i].w - pad * 2 }));
    const cellsH = Math.max(...heights) + pad * 2;
    const h = cellsH + noteH;
    if (doc.y + h > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      doc.font('cjk');
      if (!header)
        drawRow(
          cols.map((c) => c.title),
          true,
        );
      doc.fontSize(header ? 9 : 8.5);
    }
    const y = doc.y;
    let x = left;
    if (header) doc.rect(left, y, width, h).fill('#eef3fb');
    else if (stale) doc.rect(left, y, width, h).fill('#fff1f0');
    doc.fillColor(stale ? '#cf1322' : '#000');
    cells.forEach((c, i) => {
      doc.text(c, x + pad, y + pad, { width: cols[i].w - pad * 2, lineBreak: true });
      x += cols[i].w;
    });
    if (note) {
      doc.fontSize(NOTE_SIZE).fillColor('#ad4e00');
      doc.text(note, noteX + pad, y + cellsH - pad, { width: noteW, lineBreak: true });
    }
    doc.fillColor('#000');
    doc
      .moveTo(left, y + h)
      .lineTo(left + width, y + h)
      .lineWidth(0.4)
      .strokeColor('#c0c4cc')
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  drawRow(
    cols.map((c) => c.title),
    true,
  );
  for (const it of sheet.items) {
    drawRow(
      [
        String(it.sort),
        schoolCell(it),
        majorCell(it),
        it.subjectText,
        ownershipCell(it),
        it.figures.map((f) => f.text).join('\n'),
        it.stale ? '失效' : (it.tier ?? '—'),
        [...estimateLines(sheet.targetYear, it), landingLine(simulation, it.sort)].filter(Boolean).join('\n'),
      ],
      false,
      it.stale,
      hintText(it),
    );
  }
  if (sheet.items.length === 0) doc.text('（方案为空）');
  doc.moveDown(1);
  doc.fontSize(8.5).fillColor('#606266');
  doc.text(
    `说明：历年投档线为各年份普通类常规批第1次志愿投档的最低分与最低位次，每项前为其年份；梯度、录取概率与估计位次为按历年投档数据对 ${sheet.targetYear} 年的估计，仅供参考；` +
      (simulation
        ? `整体方案的被录取概率、滑档概率与各志愿的落点概率（录取落在该志愿的模拟年份占比）为按 ${simulation.year} 年模拟平行投档 ${simulation.draws.toLocaleString('en-US')} 次的结果；`
        : '') +
      `院校代码、专业代号为 ${sheet.catalogueYear ?? sheet.targetYear - 1} 年招生目录中的代码，${sheet.targetYear} 年的代码以当年招生计划为准；选科要求、学费、招生计划请以省教育招生考试院和院校招生章程为准。`,
    left,
    doc.y,
    { width },
  );
  doc.end();
  return { filename: `志愿方案-${s.name}.pdf`, contentType: 'application/pdf', data: await done };
}

/** The plan as an Excel workbook (sheet 志愿方案): the same content as the PDF, figures in their own columns beside their year. */
export async function planExcel(db: Db, actor: Actor, studentId: unknown): Promise<ExportFile> {
  const { info, sheet, simulation } = await exportSheet(db, actor, studentId);
  const s = info.student;
  const wb = new ExcelJS.Workbook();
  wb.creator = '志愿填报管理系统';
  wb.created = new Date();
  const ws = wb.addWorksheet('志愿方案');
  const [who, score, codes, ...notes] = headerLines(info, sheet, simulation);
  ws.addRow([`${s.name} 的${sheet.targetYear}年高考志愿方案`]).font = { bold: true, size: 14 };
  ws.addRow([`${who}；${score}`.replace(/ {4}/g, '，')]);
  ws.addRow([[codes, ...notes].join('；')]);
  const y = sheet.targetYear;
  const header = ws.addRow([
    '序号',
    '院校代码',
    '院校',
    '专业代号',
    '专业',
    '选科要求',
    '办学性质',
    '学费',
    '所在地',
    '梯度',
    `${y}年录取概率（估计）`,
    `${y}年估计位次`,
    `${y}年落点概率（模拟）`,
    '投档线年份',
    '最低分',
    '最低位次',
    '历年投档线（年份 · 最低分 · 最低位次）',
    '提示',
    '说明',
  ]);
  header.font = { bold: true };
  const where = new Map(info.items.map((i) => [i.sort, [i.province, i.city].filter(Boolean).join(' ')]));
  for (const it of sheet.items) {
    const newest = it.figures[0];
    const note = it.stale ? `失效：${it.staleReason ?? ''}` : it.savedTier !== it.tier && it.savedTier ? `保存时梯度：${it.savedTier}` : '';
    ws.addRow([
      it.sort,
      it.schoolCode,
      it.schoolName,
      it.majorCode ?? '',
      `${it.majorName ?? ''}${it.obey ? '（服从调剂）' : ''}`,
      it.subjectText,
      it.ownership ?? '未知',
      it.feeNote ?? '',
      where.get(it.sort) ?? '',
      it.stale ? '失效' : (it.tier ?? ''),
      it.probabilityText ?? '',
      it.estimatedRank ?? '',
      landingShare(simulation, it.sort) ?? '',
      newest?.year || '',
      newest?.minScore ?? '',
      newest?.minRank ?? '',
      it.figures.map((f) => f.text).join('；'),
      hintLines(it).join('；'),
      note,
    ]);
  }
  ws.columns.forEach((c, i) => {
    c.width = [6, 10, 24, 10, 34, 14, 12, 22, 14, 6, 16, 14, 16, 10, 8, 10, 60, 50, 40][i] ?? 12;
  });
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  return { filename: `志愿方案-${s.name}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data };
}
