import fs from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import type { Db } from '../db/types.js';
import { fail } from '../http/envelope.js';

/**
 * 营销图库's generated posters: a school's card with its admission lines of the last years (gk_school and
 * gk_admission_line, the data the volunteer module plans with), drawn as SVG and rendered to PNG by resvg (prebuilt
 * binaries, no native build) with the system CJK font — the same Noto Sans CJK the plan PDF uses
 * (server/volunteer/export.ts). Every text from the database is XML-escaped before it enters the SVG.
 */

export const POSTER_FONT = process.env.SERVICE_POSTER_FONT || process.env.VOLUNTEER_PDF_FONT || '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
export const POSTER_FONT_MISSING = '服务器缺少中文字体（Noto Sans CJK），无法生成海报，请安装 fonts-noto-cjk 后重试';
const YEARS = 5;
const WIDTH = 750;

const esc = (s: unknown) => String(s ?? '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface PosterLine {
  year: number;
  minScore: number;
  minRank: number | null;
  groups: number;
}

export interface PosterData {
  schoolCode: string;
  name: string;
  examProvince: string;
  place: string;
  level: string;
  tags: string[];
  lines: PosterLine[];
}

/** The school and, per year (newest first, at most five), its lowest 投档 line and rank over its groups. */
export async function posterData(db: Db, schoolId: unknown): Promise<PosterData> {
  const id = Number(schoolId);
  if (!Number.isSafeInteger(id) || id < 1) throw fail('请选择院校');
  const s = await db.selectFrom('gkSchool').selectAll().where('schoolId', '=', id).executeTakeFirst();
  if (!s) throw fail('院校不存在');
  const rows = await db
    .selectFrom('gkAdmissionLine')
    .select(['year', (eb) => eb.fn.min('minScore').as('minScore'), (eb) => eb.fn.max('minRank').as('minRank'), (eb) => eb.fn.count('lineId').as('groups')])
    .where('examProvince', '=', s.examProvince)
    .where('schoolCode', '=', s.schoolCode)
    .groupBy('year')
    .orderBy('year', 'desc')
    .limit(YEARS)
    .execute();
  let tags: string[] = [];
  try {
    const parsed = JSON.parse(s.tags || '[]');
    if (Array.isArray(parsed)) tags = parsed.map(String).slice(0, 4);
  } catch {
    tags = String(s.tags || '')
      .split(/[,，|]/)
      .filter(Boolean)
      .slice(0, 4);
  }
  return {
    schoolCode: s.schoolCode,
    name: s.name,
    examProvince: s.examProvince,
    place: [s.province, s.city].filter(Boolean).join(' · '),
    level: [s.level, s.ownership].filter(Boolean).join(' · '),
    tags,
    lines: rows.map((r) => ({
      year: Number(r.year),
      minScore: Number(r.minScore),
      minRank: r.minRank == null ? null : Number(r.minRank),
      groups: Number(r.groups),
    })),
  };
}

export function posterSvg(d: PosterData, platformName: string): string {
  const rowH = 76;
  const tableTop = 420;
  const height = tableTop + 80 + Math.max(1, d.lines.length) * rowH + 200;
  const max = Math.max(...d.lines.map((l) => l.minScore), 1);
  const min = Math.min(...d.lines.map((l) => l.minScore), max);
  const bar = (score: number) => 120 + ((score - min) / Math.max(1, max - min)) * 200;
  const rows = d.lines.length
    ? d.lines
        .map((l, i) => {
          const y = tableTop + 80 + i * rowH;
          return `<rect x="40" y="${y}" width="670" height="${rowH - 12}" rx="12" fill="${i % 2 ? '#ffffff' : '#f0f5ff'}"/>
<text x="70" y="${y + 42}" font-size="28" fill="#1d2129">${l.year} 年</text>
<text x="220" y="${y + 42}" font-size="32" font-weight="bold" fill="#1677ff">${l.minScore} 分</text>
<text x="400" y="${y + 42}" font-size="26" fill="#4e5969">${l.minRank == null ? '位次 --' : `位次 ${l.minRank}`}</text>
<rect x="600" y="${y + 24}" width="${Math.round(bar(l.minScore) / 4)}" height="16" rx="8" fill="#69b1ff"/>`;
        })
        .join('\n')
    : `<text x="375" y="${tableTop + 130}" text-anchor="middle" font-size="28" fill="#86909c">暂无录取数据</text>`;
  const tags = d.tags.map(
    (t, i) => `<rect x="${60 + i * 150}" y="300" width="136" height="44" rx="22" fill="#ffffff" opacity="0.25"/>
<text x="${128 + i * 150}" y="330" text-anchor="middle" font-size="22" fill="#ffffff">${esc(t)}</text>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="Noto Sans CJK SC">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1677ff"/><stop offset="1" stop-color="#4096ff"/></linearGradient></defs>
<rect width="${WIDTH}" height="${height}" fill="#f5f7fa"/>
<rect width="${WIDTH}" height="380" fill="url(#g)"/>
<circle cx="660" cy="70" r="170" fill="#ffffff" opacity="0.1"/>
<text x="60" y="110" font-size="28" fill="#e6f4ff">${esc(d.examProvince)}考生 · 院校录取速览</text>
<text x="60" y="190" font-size="56" font-weight="bold" fill="#ffffff">${esc(d.name)}</text>
<text x="60" y="250" font-size="26" fill="#e6f4ff">${esc([d.place, d.level, `院校代码 ${d.schoolCode}`].filter(Boolean).join('　'))}</text>
${tags.join('\n')}
<text x="60" y="${tableTop + 50}" font-size="30" font-weight="bold" fill="#1d2129">近年最低投档线（${esc(d.examProvince)}）</text>
${rows}
<text x="375" y="${height - 110}" text-anchor="middle" font-size="26" fill="#4e5969">分数与位次为各专业组最低投档线中的最低分、最高位次</text>
<text x="375" y="${height - 60}" text-anchor="middle" font-size="30" font-weight="bold" fill="#1677ff">${esc(platformName)} · 一对一志愿规划</text>
</svg>`;
}

export function renderPng(svg: string): Buffer {
  if (!fs.existsSync(POSTER_FONT)) throw fail(POSTER_FONT_MISSING);
  const resvg = new Resvg(svg, {
    font: { fontFiles: [POSTER_FONT], loadSystemFonts: false, defaultFontFamily: 'Noto Sans CJK SC' },
    fitTo: { mode: 'width', value: WIDTH },
  });
  return resvg.render().asPng();
}
