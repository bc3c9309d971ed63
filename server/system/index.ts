// The facade of the system module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/system/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { type DictEntry, dictionary } from './dictionaries.js';
export { dueMemoCount } from './memos.js';
export { newUserRow } from './newUserRow.js';
export { expiryTime, isExpired } from './platform.js';
export { getSettings } from './settings.js';
