import { type CompiledOption, compileOption, contextOf, resolveSettings, type ScoringContext, scoreCompiled } from './probability.js';
import type { AdmissionOption, EngineSettings, ScoredOption, StudentProfile } from './types.js';

/** Options compiled for one year context and settings; reusable for every student of that year. */
export interface PreparedOptions {
  readonly options: readonly AdmissionOption[];
  readonly compiled: readonly CompiledOption[];
  readonly context: ScoringContext;
  readonly settings: EngineSettings;
}

const cache = new WeakMap<readonly AdmissionOption[], Map<string, PreparedOptions>>();

function keyOf(ctx: ScoringContext, settings: EngineSettings): string {
  return JSON.stringify([ctx, settings]);
}

/**
 * Computes the per-option aggregates (weighted rank, σ, plan factor, line difference, explanation prefix) once.
 * scoreAll does this itself and caches the result per option array, so callers may simply keep the array.
 */
export function prepareOptions(options: readonly AdmissionOption[], student: StudentProfile, settings: Partial<EngineSettings> = {}): PreparedOptions {
  const s = resolveSettings(settings);
  const ctx = contextOf(student, s);
  const key = keyOf(ctx, s);
  let byKey = cache.get(options);
  const hit = byKey?.get(key);
  if (hit) return hit;
  const prepared: PreparedOptions = { options, compiled: options.map((o) => compileOption(o, ctx, s)), context: ctx, settings: s };
  if (!byKey) {
    byKey = new Map();
    cache.set(options, byKey);
  }
  byKey.set(key, prepared);
  return prepared;
}

function isPrepared(x: readonly AdmissionOption[] | PreparedOptions): x is PreparedOptions {
  return !Array.isArray(x);
}

/**
 * Scores every option for one student, in input order. The aggregates that do not depend on the student are computed
 * on the first call for an array (or passed in via prepareOptions) and reused; a call then costs one normal CDF and
 * one short string per option.
 */
export function scoreAll(lines: readonly AdmissionOption[] | PreparedOptions, student: StudentProfile, settings: Partial<EngineSettings> = {}): ScoredOption[] {
  let prepared: PreparedOptions;
  if (isPrepared(lines)) {
    prepared = lines;
    const ctx = contextOf(student, prepared.settings);
    if (keyOf(ctx, prepared.settings) !== keyOf(prepared.context, prepared.settings)) {
      throw new Error('考生的年份、批次线或考生人数与预编译的志愿数据不一致');
    }
  } else {
    prepared = prepareOptions(lines, student, settings);
  }
  const { compiled, context, settings: s } = prepared;
  const out = new Array<ScoredOption>(compiled.length);
  for (let i = 0; i < compiled.length; i++) out[i] = scoreCompiled(compiled[i], student, context, s);
  return out;
}
