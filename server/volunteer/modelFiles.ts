import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FittedModel } from './engine/calibrated.js';

/**
 * The fitted acceptance models of a province, one per as-of year (issue 23). `npm run backtest -- --write-model`
 * writes `engine/<prefix>-<Y>.json` fitted on the lines of the years ≤ Y only (targets up to Y), for every year Y
 * with at least two earlier years. A server that has seen the years up to Y (its catalogue year, or
 * ADMISSION_AS_OF=Y) takes the model of the newest as-of year ≤ Y, so it never uses a model that learnt from a
 * later year; before the first model there is none (the province keeps the engine before, probability.ts).
 *
 * Fitting at load is not an option (about 17 s over five years of lines; the seeded test databases hold one year).
 * The folder is listed once per province and each file (~170 KB) is read and parsed once per process on first use
 * (~2 ms), so a server that never scores a student pays nothing.
 */

/** File name prefix of each province that has fitted models. */
export const MODEL_PREFIXES: Readonly<Record<string, string>> = { 山东: 'model-shandong' };

export interface ModelFiles {
  /** The model of the newest as-of year ≤ asOfYear, or null (no model for the province, or none that old). */
  fittedModelOf(province: string, asOfYear: number): FittedModel | null;
  /** The as-of years with a model file, ascending. */
  modelYearsOf(province: string): number[];
}

/** The models stored in `dir` (the engine folder by default; tests pass a folder of their own). */
export function modelFilesIn(dir: string, prefixes: Readonly<Record<string, string>> = MODEL_PREFIXES): ModelFiles {
  const years = new Map<string, number[]>();
  const models = new Map<string, FittedModel>();

  function modelYearsOf(province: string): number[] {
    let list = years.get(province);
    if (!list) {
      const prefix = prefixes[province];
      const re = prefix ? new RegExp(`^${prefix}-(\\d{4})\\.json$`) : null;
      list =
        re && fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .map((f) => re.exec(f))
              .filter((m): m is RegExpExecArray => m != null)
              .map((m) => Number(m[1]))
              .sort((a, b) => a - b)
          : [];
      years.set(province, list);
    }
    return [...list];
  }

  function fittedModelOf(province: string, asOfYear: number): FittedModel | null {
    if (!Number.isFinite(asOfYear)) return null;
    const year = modelYearsOf(province)
      .filter((y) => y <= asOfYear)
      .pop();
    if (year == null) return null;
    const file = path.join(dir, `${prefixes[province]}-${year}.json`);
    let model = models.get(file);
    if (!model) {
      model = JSON.parse(fs.readFileSync(file, 'utf8')) as FittedModel;
      // A model that learnt from a year after its as-of year would answer with what was not known then.
      const later = model.trainedOn.filter((y) => y > year);
      if (later.length) throw new Error(`模型文件 ${file} 的训练年份 ${later.join('、')} 晚于其截至年份 ${year}，请重新运行 npm run backtest -- --write-model`);
      models.set(file, model);
    }
    return model;
  }

  return { fittedModelOf, modelYearsOf };
}

const engineModels = modelFilesIn(fileURLToPath(new URL('./engine/', import.meta.url)));

/** The fitted model a server that has seen the years ≤ asOfYear uses for `province` (山东 only today). */
export function fittedModelOf(province: string, asOfYear: number): FittedModel | null {
  return engineModels.fittedModelOf(province, asOfYear);
}

/** The as-of years with a fitted model for `province`, ascending (empty for a province without models). */
export function modelYearsOf(province: string): number[] {
  return engineModels.modelYearsOf(province);
}
