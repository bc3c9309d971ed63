// The facade of the content module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/content/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { esc } from './site.js';
