/**
 * The volunteer-planning service functions, callable without HTTP (routes.ts wraps them; bench.ts times them).
 * Every function takes the Kysely instance and an Actor ({ userId, userName, roles }) where data scope matters.
 */
export { type Catalogue, invalidateCatalogue, loadCatalogue, requireCatalogue, scoreCatalogue } from './catalogue.js';
export type { Actor } from './common.js';
export { autofillPlan, type ChanceFilters, type ChanceSubject, enrollmentChance, resolveSubject } from './filling.js';
export { planInfo, savePlan, sortPlan, transition } from './plans.js';
export { createStudent, editStudent, listStudents, loadStudent } from './students.js';
