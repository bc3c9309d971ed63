// The facade of the home module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/home/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { platformTotals } from './platformFigures.js';
