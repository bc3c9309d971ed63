import type { FastifyInstance } from 'fastify';
import { esc } from '../content/index.js';
import type { ChoiceDetail } from './choiceSheet.js';
import { estimateLines, examYearNote, hintLines, majorCodeText } from './choiceSheet.js';
import type { Db } from './common.js';
import { shareInfo } from './share.js';

/**
 * The page a share link (shareZY / shareZYNew → /share/zy?token=…) opens for a visitor who is not signed in.
 *
 * Server-rendered HTML, like the public site /site/, rather than a console route: a parent opening the link on a
 * phone should not download the whole console bundle (antd, Refine, RJSF) to read one table, and the console's
 * route guard would have to learn a second sign-in-free path. The page has no script (the CSP forbids inline script
 * anyway) and inline styles only. The token is checked on the server on every load by shareInfo: a forged, revoked
 * or expired token gets a clear Chinese page with HTTP 404 / 410 and nothing of the plan.
 */

type ShareView = Awaited<ReturnType<typeof shareInfo>>;

const STYLE = `body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei","Noto Sans CJK SC",sans-serif;background:#f5f7fa;color:#1f2329}
main{max-width:1080px;margin:0 auto;padding:16px}
h1{font-size:20px;margin:8px 0 4px}
.meta{color:#646a73;font-size:14px;margin:4px 0 12px;line-height:1.8}
.meta span{margin-right:16px}
.tag{display:inline-block;padding:0 6px;border-radius:4px;font-size:12px;line-height:20px}
.t冲{background:#fff1f0;color:#cf1322}.t稳{background:#e6f4ff;color:#0958d9}.t保{background:#f6ffed;color:#389e0d}
table{width:100%;border-collapse:collapse;background:#fff;font-size:14px}
th,td{border-bottom:1px solid #ebeef5;padding:8px;text-align:left}
th{background:#fafafa;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.fig{white-space:nowrap;font-variant-numeric:tabular-nums}
.wrap{overflow-x:auto}
.code{color:#646a73;font-size:12px}
tr.stale td{background:#fff1f0}
.tag.stale{background:#cf1322;color:#fff}
.why{color:#cf1322;font-size:12px}
.hint{color:#ad4e00;font-size:12px}
.note{color:#8f959e;font-size:12px;margin-top:12px}
.box{background:#fff;border-radius:8px;padding:32px;text-align:center;margin-top:64px}
.box h1{font-size:18px}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex,nofollow"><meta name="referrer" content="no-referrer">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const dateTime = (ms: number) =>
  new Date(ms).toLocaleString('zh-CN', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });

const br = (lines: Array<string | null | undefined>) =>
  lines
    .filter((l): l is string => l != null && l !== '')
    .map((l) => esc(l))
    .join('<br>');

function choiceRow(i: ChoiceDetail, where: string, targetYear: number): string {
  const estimate = estimateLines(targetYear, i);
  const tier = i.stale ? '<span class="tag stale">失效</span>' : i.tier ? `<span class="tag t${esc(i.tier)}">${esc(i.tier)}</span>` : '—';
  // 提示: the cautions no other column already says (位次波动大, 仅招 1–2 人, 军队/公安), one short line.
  const hints = hintLines(i);
  const major = `<span class="code">专业代号 ${esc(majorCodeText(i))}</span><br>${esc(`${i.majorName ?? ''}${i.obey ? '（服从调剂）' : ''}`)}${
    i.stale ? `<div class="why">失效：${esc(i.staleReason ?? '')}</div>` : ''
  }${hints.length ? `<div class="hint">提示：${esc(hints.join('；'))}</div>` : ''}`;
  return `<tr${i.stale ? ' class="stale"' : ''}><td class="num">${i.sort}</td><td><span class="code">院校代码 ${esc(i.schoolCode)}</span><br>${esc(
    `${i.schoolName ?? ''}${i.groupCode ? ` 第${i.groupCode}组` : ''}`,
  )}</td><td>${major}</td><td>${esc(i.subjectText)}</td><td>${br([i.ownership ?? '办学性质未知', i.feeNote])}</td><td>${esc(where)}</td><td class="fig">${br(
    i.figures.map((f) => f.text),
  )}</td><td>${tier}</td><td class="fig">${br(estimate)}</td></tr>`;
}

export function renderSharePage(v: ShareView): string {
  const s = v.student;
  const y = v.targetYear;
  const where = new Map(v.items.map((i) => [i.sort, [i.province, i.city].filter(Boolean).join(' ')]));
  const rows = v.choices.map((i) => choiceRow(i, where.get(i.sort) ?? '', y)).join('');
  const stale = v.choices.filter((i) => i.stale).length;
  const notes = [
    v.catalogueYear != null ? `院校代码、专业代号按 ${v.catalogueYear} 年招生目录；投档线每项标明年份；录取概率与估计位次为 ${y} 年估计。` : null,
    examYearNote(s.examYear, y),
    stale ? `有 ${stale} 个志愿已失效${v.catalogueYear != null ? `（不在 ${v.catalogueYear} 年招生目录中）` : ''}，请联系专家替换后再填报。` : null,
  ].filter((n): n is string => n != null);
  const body = `<h1>${esc(s.name)} 的${esc(y)}年高考志愿方案（只读）</h1>
<div class="meta"><span>省份：${esc(s.province)}</span><span>高考年份：${esc(y)}</span><span>分数：${esc(s.score ?? '—')}</span><span>位次：${esc(
    s.rankText,
  )}</span><span>选科：${esc(s.subjectNames ?? '')}</span><br><span>方案状态：${esc(v.plan.statusName ?? v.plan.status)}</span><span>志愿数：${v.items.length}</span><span>更新时间：${esc(
    v.plan.updateTime ? dateTime(Number(v.plan.updateTime)) : '—',
  )}</span><span>链接有效期至：${esc(dateTime(v.expireTime))}</span>${notes.map((n) => `<br><span>${esc(n)}</span>`).join('')}</div>
${
  v.choices.length
    ? `<div class="wrap"><table><thead><tr><th>序号</th><th>院校代码 / 院校</th><th>专业代号 / 专业</th><th>选科要求</th><th>办学性质 / 学费</th><th>所在地</th><th>投档线（年份 · 最低分 · 最低位次）</th><th>梯度</th><th>${esc(
        y,
      )}年估计</th></tr></thead><tbody>${rows}</tbody></table></div>`
    : '<div class="box">方案中还没有志愿</div>'
}
<p class="note">本页为专家分享的只读方案，内容随专家修改实时更新；录取概率与估计位次根据历年投档数据对 ${esc(
    y,
  )} 年估计，仅供参考；选科要求、学费、招生计划以省教育招生考试院和院校招生章程为准。</p>`;
  return layout(`${s.name} 的${y}年高考志愿方案`, body);
}

export function renderShareError(message: string): string {
  return layout('分享链接不可用', `<div class="box"><h1>${esc(message)}</h1><p class="meta">如需查看志愿方案，请联系您的专家重新分享链接。</p></div>`);
}

export function registerSharePage(app: FastifyInstance, db: Db) {
  // Declares no permission on purpose, like /site/: a permission marks an API route, and API routes require the signed
  // Authentication/Timer headers, which a browser opening a link cannot send. The token is the only key, checked below.
  app.get('/share/zy', async (request, reply) => {
    const token = (request.query as Record<string, unknown> | undefined)?.token;
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
    try {
      return reply.send(renderSharePage(await shareInfo(db, token)));
    } catch (e) {
      const msg = e instanceof Error ? e.message : '';
      // Only the share module's own messages are shown; anything else is a server fault, left to the error handler.
      if (!msg.startsWith('分享链接')) throw e;
      return reply.code(msg.includes('过期') ? 410 : 404).send(renderShareError(msg));
    }
  });
}
