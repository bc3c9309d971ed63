/**
 * One 门类 and its 专业类, in catalogue order, for a picker: the answer of /appv2/api/Filling/majorClasses, built by
 * server/volunteer/majorClass.ts and picked from in the console's 智能填报 dialog.
 */
export interface DisciplineNode {
  code: string;
  name: string;
  classes: Array<{ code: string; name: string }>;
}
