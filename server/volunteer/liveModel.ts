import { type AdmissionOption, rankForScore, type SegmentTable } from './engine/index.js';
import { type LiveColumns, type LiveEstimate, type LiveLine, liveColumns, prepareLive } from './engine/live.js';
import { fittedModelOf } from './modelFiles.js';

/** The fitted model of a province as of a year (modelFiles.ts: one JSON per as-of year, written by the backtest). */
export { fittedModelOf };

export interface LiveCatalogue {
  lines: LiveLine[];
  estimates: Array<LiveEstimate | null>;
  /** The estimates' numbers in typed arrays, for scoring every line per request (engine/live.ts scoreLiveColumn). */
  columns: LiveColumns;
}

/**
 * What of a catalogue (catalogue.ts) the estimates read. Named here rather than imported: catalogue.ts calls
 * liveCatalogueOf, and importing its Catalogue type back would close an import circle.
 */
export interface LiveSource {
  province: string;
  year: number;
  targetYear: number;
  targetCohort: number | null;
  cohortByYear: Map<number, number>;
  segments: Map<number, SegmentTable>;
  options: AdmissionOption[];
  entries: Array<{ isNew: boolean }>;
}

const prepared = new WeakMap<LiveSource, LiveCatalogue | null>();

/**
 * The catalogue's lines estimated for its target year (the exam year families fill: catalogue year + 1); null when
 * the province has no fitted model. Students are ranked in the newest 一分一段 table (the target year's own once it is
 * imported), so that table's cohort is the target cohort every past rank is brought to.
 */
export function liveCatalogueOf(cat: LiveSource): LiveCatalogue | null {
  if (prepared.has(cat)) return prepared.get(cat) ?? null;
  const model = fittedModelOf(cat.province, cat.year);
  let out: LiveCatalogue | null = null;
  const nowCohort = cat.targetCohort;
  if (model && nowCohort) {
    const target = cat.targetYear;
    const cohorts = new Map(cat.cohortByYear);
    cohorts.set(target, nowCohort);
    const ownTable = cat.segments.get(cat.year) ?? null;
    const lines: LiveLine[] = cat.options.map((o, i) => {
      const newest = o.history[0];
      const points = o.history
        .filter((h) => h.minRank != null && h.minRank > 0)
        .map((h) => ({ year: h.year, minRank: h.minRank as number, planCount: h.planCount ?? null }));
      const rankFromScore = points.length === 0 && ownTable && newest?.minScore != null ? rankForScore(ownTable, newest.minScore).rank : null;
      return { option: o, points, rankFromScore, referenceScore: newest?.minScore ?? null, newLine: cat.entries[i].isNew };
    });
    const estimates = prepareLive(model, lines, target, cohorts);
    out = { lines, estimates, columns: liveColumns(lines, estimates) };
  }
  prepared.set(cat, out);
  return out;
}
