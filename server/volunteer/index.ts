// The facade of the volunteer module: the few functions other modules may call (../shared/notes/module-layout.md). Nothing
// else of server/volunteer/ is imported from outside it; .dependency-cruiser.cjs checks that.
export { listAppointments } from './appointments.js';
export { admissionAsOf } from './asOf.js';
export type { Actor as VolunteerActor } from './common.js';
export { prepareSegmentTable, rankForScore } from './engine/index.js';
export { FONT_MISSING, pdfFont } from './export.js';
export { majorCatalogue, majorEncyclopaedia } from './majorEncyclopaedia.js';
export { evaluationByDiscipline, evaluationDisciplines, rankingList, referenceView } from './reference.js';
export { examineList } from './review.js';
export { schoolMajorLines } from './schoolDetail.js';
export { planByBatch, SUBJECTS, sameScoreYears, schoolLinesByYear, subjectRequirements } from './toolboxData.js';
