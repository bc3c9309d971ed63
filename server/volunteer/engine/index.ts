/** Acceptance-rate engine: pure functions, no database and no HTTP. See server/volunteer/README.md. */
export { autofill } from './autofill.js';
export { checkGradient } from './gradient.js';
export { type FlatLine, groupLines, optionKey } from './lines.js';
export { normalCdf } from './normal.js';
export {
  type CompiledOption,
  compileOption,
  contextOf,
  DEFAULT_BANDS,
  DEFAULT_SETTINGS,
  resolveSettings,
  type ScoringContext,
  scoreOption,
  tierFor,
} from './probability.js';
export { equivalentRank, prepareSegmentTable, rankForScore } from './rank.js';
export { type PreparedOptions, prepareOptions, scoreAll } from './score-all.js';
export * from './types.js';
