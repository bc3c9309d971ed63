import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Catalogue } from './catalogue.js';
import type { FittedModel } from './engine/calibrated.js';
import { rankForScore } from './engine/index.js';
import { type LiveColumns, type LiveEstimate, type LiveLine, liveColumns, prepareLive } from './engine/live.js';

/**
 * The fitted acceptance model of a province, loaded from the JSON that `npm run backtest -- --write-model` writes.
 * Fitting at load is not an option: it takes about 17 s over five years of lines (and the seeded test databases hold
 * one year, nothing to fit on). The JSON (~150 KB) is read and parsed once per process on first use (~2 ms), and the
 * per-line estimates once per catalogue object, so a test server that never scores a student pays nothing.
 */

const MODEL_FILES: Record<string, string> = { 山东: fileURLToPath(new URL('./engine/model-shandong.json', import.meta.url)) };
const models = new Map<string, FittedModel | null>();

export function fittedModelOf(province: string): FittedModel | null {
  if (!models.has(province)) {
    const file = MODEL_FILES[province];
    models.set(province, file && fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as FittedModel) : null);
  }
  return models.get(province) ?? null;
}

export interface LiveCatalogue {
  lines: LiveLine[];
  estimates: Array<LiveEstimate | null>;
  /** The estimates' numbers in typed arrays, for scoring every line per request (engine/live.ts scoreLiveColumn). */
  columns: LiveColumns;
}

const prepared = new WeakMap<Catalogue, LiveCatalogue | null>();

/** The catalogue's lines estimated for the year after its newest data; null when the province has no fitted model. */
export function liveCatalogueOf(cat: Catalogue): LiveCatalogue | null {
  if (prepared.has(cat)) return prepared.get(cat) ?? null;
  const model = fittedModelOf(cat.province);
  let out: LiveCatalogue | null = null;
  if (model) {
    const target = cat.year + 1;
    const cohorts = new Map<number, number>();
    for (const o of cat.options) for (const h of o.history) if (h.cohortSize) cohorts.set(h.year, h.cohortSize);
    // Students are ranked in the newest rank table: the target year's cohort is that table's.
    const nowCohort = cat.rules.cohortSize ?? cohorts.get(cat.segmentYear ?? cat.year);
    if (nowCohort) {
      cohorts.set(target, nowCohort);
      const lines: LiveLine[] = cat.options.map((o) => {
        const newest = [...o.history].sort((a, b) => b.year - a.year)[0];
        const points = o.history
          .filter((h) => h.minRank != null && h.minRank > 0)
          .map((h) => ({ year: h.year, minRank: h.minRank as number, planCount: h.planCount ?? null }));
        const rankFromScore =
          points.length === 0 && cat.segment && newest?.minScore != null && newest.year === cat.segmentYear
            ? rankForScore(cat.segment, newest.minScore).rank
            : null;
        let referenceScore: number | null = null;
        if (newest?.minScore != null) {
          if (newest.year === cat.year) referenceScore = newest.minScore;
          else if (newest.batchLine != null && cat.batchLine != null) referenceScore = newest.minScore - newest.batchLine + cat.batchLine;
        }
        return { option: o, points, rankFromScore, referenceScore };
      });
      const estimates = prepareLive(model, lines, target, cohorts);
      out = { lines, estimates, columns: liveColumns(lines, estimates) };
    }
  }
  prepared.set(cat, out);
  return out;
}
