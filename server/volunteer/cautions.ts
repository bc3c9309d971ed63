import { CAUTION_KINDS, type Caution, type CautionKind } from '../../common/volunteer/cautions.js';
import { type Catalogue, type CatalogueEntry, ownershipOfLine, subjectUnknown } from './catalogue.js';

export type { Caution, CautionKind };

/**
 * Per-line cautions (issue 24 item 3): what the probability alone does not tell a family about a choice. A line whose
 * own history jumped, a line of one or two places, a 中外合作办学 / 民办 fee, a 军队/公安 school's 政审/军检/面试, and a
 * line whose 选考科目要求 is unknown. Used by the plan report, the exports and the share page (choiceSheet.ts), and by
 * auto-fill for the items it proposes.
 */

/**
 * Two consecutive years of a line whose lowest ranks differ by this factor or more make it 位次波动大. Measured over
 * the real Shandong 2021–2026 lines (the 2026 catalogue's 18,680 programmes with two consecutive years, 67,426
 * year-to-year moves): the median move is ×1.07 and the 95th percentile ×1.32; ×1.5 is the top 1.7 % of moves and
 * flags 5.5 % of those programmes (4.3 % of the catalogue), their top ~5 % by largest move (docs/volunteer.md).
 */
export const VOLATILE_RATIO = 1.5;

/** A plan of at most this many places (in the newest year that publishes one) is 招生人数少. */
export const FEW_PLACES = 2;

const thousands = (n: number) => n.toLocaleString('en-US');

/** Shown for a 中外合作办学 / 民办 choice when the data has no fee for it. */
export const FEE_UNKNOWN = '学费较高，以招生章程为准';
const SINO_FOREIGN = '中外合作办学';
const PRIVATE = '民办';

/** The fee written in the line's notes (香港珠海学院: 学费每年104750港元), or null. */
export function feeInName(majorName: string | null | undefined): string | null {
  const m = (majorName ?? '').normalize('NFKC').match(/学费[^()（）,，;；、]*?\d[\d,.]*\s*(?:万)?(?:港元|澳门元|美元|元)(?:\/年|每年)?/);
  return m ? m[0].replace(/\s+/g, '') : null;
}

/** The fee of a choice: the data's own (学费每年…元), else 学费较高，以招生章程为准 for 中外合作办学 / 民办; null otherwise. */
export function feeNoteOf(majorName: string | null, ownership: string | null): string | null {
  const fee = feeInName(majorName);
  if (fee) return fee;
  return ownership === SINO_FOREIGN || ownership === PRIVATE ? FEE_UNKNOWN : null;
}

/**
 * 军队/公安 schools: 政审, a physical (军检 for the military) and an interview before admission, and often a narrower
 * eligibility than the 投档 line suggests. Read from the school's name: the school list's 主管部门 names 公安部 for
 * 中国人民警察大学 only (matched by 警察 already) and leaves the military schools' blank, so the name is what the data
 * carries for all of them (tests/server/volunteer/cautions.test.ts checks every 公安部 / 军委 school of schools.csv).
 */
const MILITARY_POLICE = /军|国防科技|公安|警察|警官|消防救援/;

export function isMilitaryOrPolice(schoolName: string | null | undefined): boolean {
  return MILITARY_POLICE.test(schoolName ?? '');
}

/**
 * Where a line's history moved most between two consecutive years: the index i of the newer year (years[i] against
 * years[i + 1]) and the ratio of the larger to the smaller min rank; i = −1 when no two consecutive years both have a
 * rank. The auto-fill asks it of every candidate line (landingFill.ts), the cautions below of the chosen ones.
 */
export function largestMoveAt(e: CatalogueEntry): { at: number; ratio: number } {
  let at = -1;
  let ratio = 0;
  const ys = e.years;
  for (let i = 0; i + 1 < ys.length; i++) {
    const a = ys[i].minRank;
    const b = ys[i + 1].minRank;
    // A gap year is not a year-to-year move (the line was not offered, or not under this identity, in between).
    if (ys[i].year - ys[i + 1].year !== 1 || a == null || b == null || a <= 0 || b <= 0) continue;
    const r = a > b ? a / b : b / a;
    if (r > ratio) {
      ratio = r;
      at = i;
    }
  }
  return { at, ratio };
}

/** The largest move between two consecutive years of the line's own history (newest first), or null. */
function largestMove(e: CatalogueEntry): { from: { year: number; rank: number }; to: { year: number; rank: number }; ratio: number } | null {
  const { at, ratio } = largestMoveAt(e);
  if (at < 0) return null;
  const newer = e.years[at];
  const older = e.years[at + 1];
  return { from: { year: older.year, rank: older.minRank as number }, to: { year: newer.year, rank: newer.minRank as number }, ratio };
}

/**
 * The cautions read from the school and the line's name alone (fee, 军队/公安), for a line with no catalogue history
 * too (the 院校专业组 provinces). `ownership` as catalogue.ts ownershipOfLine answers it.
 */
export function schoolCautions(schoolName: string | null, majorName: string | null, ownership: string | null): Caution[] {
  const out: Caution[] = [];
  const fee = feeNoteOf(majorName, ownership);
  if (fee) {
    const who = ownership === SINO_FOREIGN ? SINO_FOREIGN : ownership === PRIVATE ? '民办院校' : null;
    const tail = fee === FEE_UNKNOWN ? fee : `${fee}，以招生章程为准`;
    out.push({ kind: 'fee', text: who ? `${who}，${tail}` : tail });
  }
  if (isMilitaryOrPolice(schoolName)) {
    out.push({ kind: 'military-police', text: '军队/公安院校：需政审、体检（军检）和面试，以招生章程为准' });
  }
  return out;
}

/** The cautions of catalogue entry `idx`, in CAUTION_KINDS order; [] for an ordinary line. */
export function lineCautions(cat: Catalogue, idx: number): Caution[] {
  const e = cat.entries[idx];
  if (!e) return [];
  const out: Caution[] = [];
  const move = largestMove(e);
  if (move && move.ratio >= VOLATILE_RATIO) {
    out.push({
      kind: 'volatile',
      text: `位次波动大：${move.from.year}年 ${thousands(move.from.rank)}名 → ${move.to.year}年 ${thousands(move.to.rank)}名，录取概率参考性较弱`,
    });
  }
  // The catalogue year may publish no plan counts (2026's 投档表 has none): the newest year that does, named.
  const planned = e.years.find((y) => y.planCount != null);
  if (planned?.planCount != null && planned.planCount >= 1 && planned.planCount <= FEW_PLACES) {
    out.push({ kind: 'single-place', text: `${planned.year}年仅招 ${planned.planCount} 人，波动大` });
  }
  out.push(...schoolCautions(e.school.name, e.majorName, ownershipOfLine(e.planTags, e.school.ownership)));
  if (subjectUnknown(cat, e)) out.push({ kind: 'subject-unknown', text: '选科要求未知，请核对招生章程' });
  return out;
}

/** Positions as the report prints them: 第5、12、40个 (the first ten, then 等). */
function positionsText(sorts: number[]): string {
  const shown = sorts.slice(0, 10).join('、');
  return `第${shown}${sorts.length > 10 ? '等' : ''}个`;
}

/** A year list as one figure: 2025年, or 2021–2025年. */
function yearsText(years: number[]): string {
  const lo = Math.min(...years);
  const hi = Math.max(...years);
  return lo === hi ? `${lo}年` : `${lo}–${hi}年`;
}

/**
 * One risk line per kind of caution that occurs in the plan, with the choices it concerns: 「3 个志愿位次波动大（第5、
 * 12、40个）…」. `items` in plan order.
 */
export function cautionRisks(items: ReadonlyArray<{ sort: number; cautions: readonly Caution[] }>): string[] {
  const out: string[] = [];
  for (const kind of CAUTION_KINDS) {
    const hit = items.filter((it) => it.cautions.some((c) => c.kind === kind));
    if (hit.length === 0) continue;
    const n = hit.length;
    const where = positionsText(hit.map((it) => it.sort));
    switch (kind) {
      case 'volatile':
        out.push(`${n} 个志愿位次波动大（${where}）：历年相邻两年最低位次相差 ${VOLATILE_RATIO} 倍以上，录取概率参考性较弱，不宜作为保底`);
        break;
      case 'single-place': {
        // The year of the plan count opens the text (lineCautions above: 「2025年仅招 1 人」).
        const years = hit
          .flatMap((it) => it.cautions.filter((c) => c.kind === kind).map((c) => Number(/^(\d{4})年/.exec(c.text)?.[1])))
          .filter(Number.isFinite);
        const plan = years.length ? `，${yearsText(years)}招生计划` : '';
        out.push(`${n} 个志愿招生人数仅 1–2 人（${where}${plan}）：最低位次年年变化大，不宜作为保底`);
        break;
      }
      case 'fee':
        out.push(`${n} 个志愿为中外合作办学或民办等学费较高的专业（${where}）：请确认家庭能够接受，学费以招生章程为准`);
        break;
      case 'military-police':
        out.push(`${n} 个志愿为军队/公安院校（${where}）：需政审、体检（军检）和面试，请确认考生符合招生章程的条件`);
        break;
      case 'subject-unknown':
        out.push(`${n} 个志愿选科要求未知（${where}）：请核对招生章程，确认考生的选考科目符合要求`);
        break;
    }
  }
  return out;
}
