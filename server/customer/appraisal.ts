import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';
import { contains } from '../http/like.js';
import { intParam, paging } from '../http/params.js';
import type { Actor } from '../security/actor.js';
import { getSettings } from '../system/index.js';
import { FONT_MISSING, pdfFont } from '../volunteer/index.js';
import { loadCustomer } from './customers.js';
import { DAY_MS } from './rules.js';

/**
 * 测评: a Holland (RIASEC) interest assessment. The questions are served by /appv2/api/judg/problem; an answer
 * sheet is scored per dimension (each option adds 0–2 points to one dimension) and the top three dimensions make
 * the Holland code. 测评设置 decides whether it is open, how many attempts a customer has and how long a result is
 * valid; its 报告说明 goes at the end of the PDF.
 */

export const DIMENSIONS: Record<string, { name: string; majors: string }> = {
  R: { name: '现实型', majors: '机械、土木、电气、农学' },
  I: { name: '研究型', majors: '数学、物理、计算机、医学' },
  A: { name: '艺术型', majors: '设计、音乐、汉语言文学、新闻' },
  S: { name: '社会型', majors: '教育、心理、护理、社会工作' },
  E: { name: '企业型', majors: '工商管理、市场营销、法学、金融' },
  C: { name: '常规型', majors: '会计、统计、档案、审计' },
};

const Q = (id: number, dim: string, title: string) => ({
  id,
  dim,
  title,
  options: [
    { key: 'A', label: '非常符合', points: 2 },
    { key: 'B', label: '有点符合', points: 1 },
    { key: 'C', label: '不符合', points: 0 },
  ],
});

export const QUESTIONS = [
  Q(1, 'R', '我喜欢动手修理或组装东西'),
  Q(2, 'I', '我喜欢弄清楚事情背后的原理'),
  Q(3, 'A', '我喜欢写作、绘画或演奏'),
  Q(4, 'S', '同学遇到困难时，我常主动帮忙'),
  Q(5, 'E', '我喜欢组织活动并带领大家完成'),
  Q(6, 'C', '我做事喜欢按计划、有条理'),
  Q(7, 'R', '我喜欢户外活动或操作工具设备'),
  Q(8, 'I', '我喜欢解数学题或做科学实验'),
  Q(9, 'A', '我常有与众不同的想法'),
  Q(10, 'S', '我愿意倾听别人的烦恼'),
  Q(11, 'E', '我善于说服别人接受我的观点'),
  Q(12, 'C', '我擅长整理资料、核对数字'),
];

export function problems() {
  return QUESTIONS.map((q) => ({ id: q.id, title: q.title, options: q.options.map((o) => ({ key: o.key, label: o.label })) }));
}

export function score(answers: unknown) {
  if (!answers || typeof answers !== 'object' || Array.isArray(answers)) throw fail('请完成全部题目');
  const a = answers as Record<string, unknown>;
  const dims: Record<string, number> = { R: 0, I: 0, A: 0, S: 0, E: 0, C: 0 };
  let total = 0;
  for (const q of QUESTIONS) {
    const opt = q.options.find((o) => o.key === a[String(q.id)]);
    if (!opt) throw fail(`请回答第 ${q.id} 题`);
    dims[q.dim] += opt.points;
    total += opt.points;
  }
  const code = Object.entries(dims)
    .sort((x, y) => y[1] - x[1] || 'RIASEC'.indexOf(x[0]) - 'RIASEC'.indexOf(y[0]))
    .slice(0, 3)
    .map(([d]) => d)
    .join('');
  const summary = `霍兰德代码 ${code}（${[...code].map((d) => DIMENSIONS[d].name).join('、')}）；可关注：${DIMENSIONS[code[0]].majors}`;
  return { dims, total, code, summary };
}

/** The family submits an answer sheet (app side); the settings decide whether and how often. */
export async function submitAppraisal(db: Db, appUserId: number, answers: unknown) {
  const settings = await getSettings(db, 'evaluation');
  if (!settings.evaluationEnabled) throw fail('测评暂未开放');
  const me = await db.selectFrom('volStudent').selectAll().where('appUserId', '=', appUserId).where('cusStatus', '=', 'active').executeTakeFirst();
  if (!me) throw fail('请先激活会员卡后再测评');
  return db.transaction().execute(async (trx) => {
    const done = Number(
      (
        await trx
          .selectFrom('cusAppraisal')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('studentId', '=', me.studentId)
          .executeTakeFirst()
      )?.n ?? 0,
    );
    if (settings.maxAttempts > 0 && done >= settings.maxAttempts) throw fail(`测评次数已达上限（${settings.maxAttempts} 次）`);
    const s = score(answers);
    const now = Date.now();
    const row = await trx
      .insertInto('cusAppraisal')
      .values({
        studentId: me.studentId,
        storeId: me.storeId,
        answers: JSON.stringify(answers),
        score: s.total,
        result: JSON.stringify({ dims: s.dims, code: s.code }),
        summary: s.summary,
        expireTime: now + settings.resultValidDays * DAY_MS,
        createTime: now,
      })
      .returning('appraisalId')
      .executeTakeFirstOrThrow();
    return { appraisalId: row.appraisalId, score: s.total, code: s.code, dims: s.dims, summary: s.summary };
  });
}

export async function listAppraisals(db: Db, actor: Actor, q: Record<string, unknown>) {
  const { pageSize, offset } = paging(q);
  let base = db.selectFrom('cusAppraisal as a').innerJoin('volStudent as s', 's.studentId', 'a.studentId').where('s.cusStatus', '!=', 'purged');
  if (!actor.allStores) base = base.where('a.storeId', '=', actor.storeId);
  const name = typeof q.name === 'string' ? q.name.trim() : '';
  if (name) base = base.where(contains('s.name', name));
  const total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirst())?.n ?? 0);
  const rows = await base
    .select(['a.appraisalId', 'a.studentId', 's.name as studentName', 's.mobile', 'a.score', 'a.result', 'a.summary', 'a.expireTime', 'a.createTime'])
    .orderBy('a.appraisalId', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute();
  const now = Date.now();
  return {
    rows: rows.map((r) => {
      const result = JSON.parse(r.result) as { dims: Record<string, number>; code: string };
      return { ...r, result: undefined, code: result.code, dims: result.dims, valid: r.expireTime > now };
    }),
    total,
  };
}

function plain(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();
}

/** 下载结果: the result as a PDF (CJK font as the plan export). */
export async function appraisalPdf(db: Db, actor: Actor, id: unknown): Promise<{ filename: string; data: Buffer }> {
  const appraisalId = intParam(id);
  const row = appraisalId != null ? await db.selectFrom('cusAppraisal').selectAll().where('appraisalId', '=', appraisalId).executeTakeFirst() : undefined;
  if (!row) throw fail('测评结果不存在或无权访问');
  if (!actor.allStores && row.storeId !== actor.storeId) throw fail('测评结果不存在或无权访问');
  const s = await loadCustomer(db, actor, row.studentId, ['active', 'recycled']);
  let font: Buffer;
  try {
    font = fs.readFileSync(pdfFont.path);
  } catch {
    throw fail(FONT_MISSING);
  }
  const settings = await getSettings(db, 'evaluation');
  const result = JSON.parse(row.result) as { dims: Record<string, number>; code: string };
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `测评结果-${s.name}`, Author: '志愿填报管理系统' } });
  doc.registerFont('cjk', font, pdfFont.name);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const day = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(0, 10);
  doc.font('cjk').fontSize(18).text(`${s.name} 的职业兴趣测评报告`, { align: 'center' });
  doc.moveDown().fontSize(11);
  doc.text(`测评时间：${day(row.createTime)}    有效期至：${day(row.expireTime)}    总分：${row.score}`);
  doc.moveDown().fontSize(13).text(`霍兰德代码：${result.code}`);
  doc.moveDown(0.5).fontSize(11);
  const max = 4;
  for (const [d, v] of Object.entries(result.dims)) {
    const y = doc.y;
    doc.text(`${DIMENSIONS[d].name}（${d}）`, 50, y, { width: 110 });
    doc.rect(170, y + 2, 300 * (v / max), 10).fill('#409EFF');
    doc.fillColor('#000').text(`${v} / ${max}`, 480, y);
    doc.moveDown(0.4);
  }
  doc.x = 50;
  doc.moveDown().text(row.summary, { width: 495 });
  const note = plain(settings.reportNote ?? '');
  if (note) doc.moveDown().fontSize(9).fillColor('#606266').text(note, { width: 495 });
  doc.end();
  return { filename: `测评结果-${s.name}.pdf`, data: await done };
}
