import dayjs from 'dayjs';

/** Spec §5: timestamps as YYYY-MM-DD HH:mm:ss; "--" when missing. */
export const formatTime = (ms: number | null | undefined): string => (ms ? dayjs(ms).format('YYYY-MM-DD HH:mm:ss') : '--');

/** 25061 → "25,061"; "--" when missing. */
export const formatRank = (rank: number | null | undefined): string => (rank == null ? '--' : rank.toLocaleString('zh-CN'));

/** School + major, as one label. */
export const optionLabel = (o: { schoolName: string; majorName?: string | null }): string => [o.schoolName, o.majorName].filter(Boolean).join(' · ');

/** A line's figures; the year is the year they were admitted in. */
export interface LineFigures {
  year?: number | null;
  minScore?: number | null;
  minRank?: number | null;
}

/**
 * "2026 · 581分 · 29,348名": every figure of a line shown with its year (a figure of another year would mislead the
 * family); the parts the data lack are left out, "--" when there is no figure at all.
 */
export function lineFigures(l: LineFigures): string {
  const figures = [l.minScore != null ? `${l.minScore}分` : null, l.minRank != null ? `${formatRank(l.minRank)}名` : null].filter(Boolean);
  if (!figures.length) return l.year != null ? `${l.year} · 暂无分数` : '--';
  return [l.year != null ? String(l.year) : null, ...figures].filter(Boolean).join(' · ');
}

/** "2027 估计位次 30,100": an estimate names the exam year it is for; null when there is none. */
export function estimateFigure(targetYear: number | null | undefined, estimatedRank: number | null | undefined): string | null {
  if (estimatedRank == null) return null;
  return `${targetYear != null ? `${targetYear} ` : ''}估计位次 ${formatRank(Math.round(estimatedRank))}`;
}

/** The year of a line's figures: the answer's `year`, else its newest history year. */
export const figureYear = (r: { year?: number | null; years?: ReadonlyArray<{ year: number }> }): number | null => r.year ?? r.years?.[0]?.year ?? null;

/** The exam year an estimate is for: the answer's `targetYear`, else the year after the figures. */
export const targetYearOf = (r: { targetYear?: number | null; year?: number | null; years?: ReadonlyArray<{ year: number }> }): number | null => {
  if (r.targetYear != null) return r.targetYear;
  const y = figureYear(r);
  return y != null ? y + 1 : null;
};

/** One history year: "2025 · 575分 · 31,000名 · 计划 5 人", with the name printed that year when it differs. */
export function historyFigures(
  y: LineFigures & { year: number; planCount?: number | null; majorName?: string | null; majorCode?: string | null },
  currentName?: string | null,
): string {
  const parts = [lineFigures(y)];
  if (y.planCount != null) parts.push(`计划 ${y.planCount} 人`);
  if (y.majorCode) parts.push(`专业代号 ${y.majorCode}`);
  if (y.majorName && currentName && y.majorName !== currentName) parts.push(`当年名称 ${y.majorName}`);
  return parts.join(' · ');
}

/** The catalogue year and the exam year of a province's rules (years[0] is the catalogue year). */
export function rulesYears(rules: { years?: readonly number[]; year?: number | null; targetYear?: number | null }): {
  year: number | null;
  targetYear: number | null;
} {
  const year = rules.year ?? rules.years?.[0] ?? null;
  return { year, targetYear: rules.targetYear ?? (year != null ? year + 1 : null) };
}
