import fs from 'node:fs';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { fail } from '../http/envelope.js';
import type { Actor, Db } from './common.js';
import { planInfo } from './plans.js';

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

const pct = (p: number | null) => (p == null ? '—' : `${Math.min(99.99, Math.max(0.01, p * 100)).toFixed(2)}%`);
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

/** The plan as a PDF: student, score/rank, subjects, status and the ordered plan (院校, 专业, 梯度, 概率). */
export async function planPdf(db: Db, actor: Actor, studentId: unknown): Promise<ExportFile> {
  const font = fontData();
  const info = await exportable(db, actor, studentId);
  const s = info.student;
  const plan = info.plan as NonNullable<Info['plan']>;
  const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `志愿方案-${s.name}`, Author: '志愿填报管理系统' } });
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

  doc.fontSize(18).text(`${s.name} 的高考志愿方案`, { align: 'center' });
  doc.moveDown(0.6);
  doc.fontSize(10);
  const lines = [
    `考生：${s.name}    省份：${s.province}    高考年份：${s.examYear}    选科：${s.subjectNames || '未填写'}`,
    `分数：${s.score ?? '未填写'}    位次：${s.rank ?? '未知'}    方案状态：${plan.statusName}    版本：${plan.version}    志愿数：${info.items.length}`,
    `导出时间：${stamp(Date.now())}    负责专家：${s.ownerName ?? '未分配'}`,
  ];
  for (const l of lines) doc.text(l);
  if (plan.reviewComment) doc.text(`审批意见：${plan.reviewComment}`);
  doc.moveDown(0.8);

  const cols = [
    { title: '序号', w: 32 },
    { title: '院校', w: 150 },
    { title: '专业', w: width - 32 - 150 - 40 - 60 - 70 },
    { title: '梯度', w: 40 },
    { title: '录取概率', w: 60 },
    { title: '最低分/位次', w: 70 },
  ];
  const pad = 3;
  const drawRow = (cells: string[], header: boolean) => {
    doc.fontSize(header ? 9.5 : 9);
    const heights = cells.map((c, i) => doc.heightOfString(c, { width: cols[i].w - pad * 2 }));
    const h = Math.max(...heights) + pad * 2;
    if (doc.y + h > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      doc.font('cjk');
      if (!header)
        drawRow(
          cols.map((c) => c.title),
          true,
        );
    }
    const y = doc.y;
    let x = left;
    if (header) doc.rect(left, y, width, h).fill('#eef3fb').fillColor('#000');
    cells.forEach((c, i) => {
      doc.text(c, x + pad, y + pad, { width: cols[i].w - pad * 2, lineBreak: true });
      x += cols[i].w;
    });
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
  for (const it of info.items) {
    drawRow(
      [
        String(it.sort),
        // 院校专业组 items (湖北, 广东): the group code after the school, 服从调剂 after the majors.
        `${it.schoolName ?? it.schoolCode}${it.groupCode ? ` 第${it.groupCode}组` : ''}`,
        `${it.majorName ?? ''}${it.obey ? '（服从调剂）' : ''}`,
        it.tier ?? '—',
        pct(it.probability),
        `${it.minScore ?? '—'} / ${it.minRank ?? '—'}`,
      ],
      false,
    );
  }
  if (info.items.length === 0) doc.text('（方案为空）');
  doc.moveDown(1);
  doc.fontSize(8.5).fillColor('#606266');
  doc.text('说明：梯度与录取概率为保存方案时按历年投档最低位次估算，仅供参考；选科要求、招生计划请以省教育招生考试院和院校招生章程为准。', left, doc.y, {
    width,
  });
  doc.end();
  return { filename: `志愿方案-${s.name}.pdf`, contentType: 'application/pdf', data: await done };
}

/** The plan as an Excel workbook (sheet 志愿方案). */
export async function planExcel(db: Db, actor: Actor, studentId: unknown): Promise<ExportFile> {
  const info = await exportable(db, actor, studentId);
  const s = info.student;
  const plan = info.plan as NonNullable<Info['plan']>;
  const wb = new ExcelJS.Workbook();
  wb.creator = '志愿填报管理系统';
  wb.created = new Date();
  const ws = wb.addWorksheet('志愿方案');
  ws.addRow([`${s.name} 的高考志愿方案`]).font = { bold: true, size: 14 };
  ws.addRow([`分数 ${s.score ?? '未填写'}，位次 ${s.rank ?? '未知'}，选科 ${s.subjectNames || '未填写'}，状态 ${plan.statusName}，版本 ${plan.version}`]);
  ws.addRow([]);
  const header = ws.addRow(['序号', '院校代码', '院校', '专业', '所在地', '梯度', '录取概率', '最低分', '最低位次', '说明']);
  header.font = { bold: true };
  for (const it of info.items) {
    ws.addRow([
      it.sort,
      it.schoolCode,
      it.schoolName,
      it.majorName,
      [it.province, it.city].filter(Boolean).join(' '),
      it.tier ?? '',
      it.probability == null ? '' : pct(it.probability),
      it.minScore,
      it.minRank,
      it.currentTier !== it.tier ? `当前梯度：${it.currentTier ?? '无法估计'}` : '',
    ]);
  }
  ws.columns.forEach((c, i) => {
    c.width = [6, 10, 24, 34, 14, 6, 10, 8, 10, 20][i] ?? 12;
  });
  const data = Buffer.from(await wb.xlsx.writeBuffer());
  return { filename: `志愿方案-${s.name}.xlsx`, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data };
}
