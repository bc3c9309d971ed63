/**
 * Students of 志愿填报 on the wire (docs/volunteer-api.md): the list filters and the fields a caller may set. The
 * console sends these shapes; server/volunteer/students.ts reads the same names but checks every value itself.
 */

/** Special plans that need the student's declared eligibility (专项资格), in their fixed order. */
export const ELIGIBILITY_KINDS = ['国家专项', '地方专项', '高校专项', '定向', '公费师范', '预科', '民族班'] as const;
export type EligibilityKind = (typeof ELIGIBILITY_KINDS)[number];

/** A student's plan state; 'none' while the student has no plan. */
export type PlanStatus = 'none' | 'draft' | 'submitted' | 'approved' | 'rejected';

export interface Preferences {
  regions: string[];
  levels: string[];
  majors: string[];
  tuitionCap: number | null;
}

/** Filters of the student list (my students, and the leader's view of an expert's). */
export interface StudentQuery {
  pageNum: number;
  pageSize: number;
  name?: string;
  mobile?: string;
  ownerId?: number;
  planStatus?: PlanStatus;
  scoreMin?: number;
  scoreMax?: number;
  unassigned?: 1;
}

/** Fields a caller may set on a student (create: name and the exam facts; edit: any of them). */
export interface StudentInput {
  name?: string;
  mobile?: string | null;
  province?: string;
  examYear?: number;
  score?: number | null;
  rank?: number | null;
  subjects?: number[];
  preferences?: Preferences;
  remark?: string | null;
  ownerId?: number;
  /** 专项资格: the special-plan kinds the student is eligible for. */
  specialEligibility?: EligibilityKind[];
}
