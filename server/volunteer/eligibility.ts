import type { Catalogue } from './catalogue.js';
import { parseJsonList, parseSubjects, SUBJECTS } from './common.js';
import { eligibilityNeeded, eligibleFor } from './engine/specialPlans.js';
import type { StudentRow } from './students.js';

/**
 * What a student may fill, decided on the server for the acceptance query, the auto-fill and plan save alike:
 * the undergraduate line (一段线), the subject requirements (选考科目) and the special plans (专项资格).
 */

/**
 * Below the undergraduate line (Shandong's 一段线) a student may not fill 本科 lines: the 常规批 第 1 次志愿 lines are
 * all 本科, so nothing is offered, with the reason. Null when the student is at or above the line (or it is unknown).
 */
export function belowUndergraduateLine(cat: Catalogue, score: number): string | null {
  const name = cat.batchLineName;
  if (cat.batchLine == null || name == null || !(name === '一段线' || name.includes('本科')) || score >= cat.batchLine) return null;
  return `考生 ${score} 分低于 ${cat.batchLineYear ?? cat.year} 年${name} ${cat.batchLine} 分，不能填报本科院校专业（常规批第 1 次志愿均为本科）`;
}

/**
 * Whether a student with these subjects may fill a line: 不限 or unknown → yes; 物理或化学 → any of them; 物理、化学
 * → all of them (Shandong's rule: every listed subject is required).
 */
export function subjectsAllow(req: string | null, mine: ReadonlySet<string>): boolean {
  if (req == null || req === '' || req === '不限') return true;
  if (req.includes('或')) return req.split('或').some((s) => mine.has(s.trim()));
  return req.split('、').every((s) => mine.has(s.trim()));
}

/** The student's subjects by name (政治 also answers to 思想政治, as the requirements print it). */
export function subjectNameSet(subjects: string | null | undefined): Set<string> {
  const mine = new Set(parseSubjects(subjects).map((n) => SUBJECTS[n]));
  if (mine.has('政治')) mine.add('思想政治');
  return mine;
}

/** The 专项资格 a student declared (none for an ad-hoc score without a student). */
export function declaredEligibility(student: Pick<StudentRow, 'specialEligibility'> | null): Set<string> {
  return new Set(student ? parseJsonList(student.specialEligibility) : []);
}

/** Whether the catalogue entry is a special plan the student has not declared eligibility for. */
export function lacksEligibility(cat: Catalogue, idx: number, declared: ReadonlySet<string>): boolean {
  return !eligibleFor(cat.entries[idx].planTags, declared);
}

/**
 * Why a stored student may not fill a catalogue entry (the Chinese message of a refused plan save), or null when they
 * may. The same three rules as the acceptance query; `position` is the entry's place in the plan (1-based).
 */
export function refusalOf(cat: Catalogue, idx: number, student: StudentRow, position: number): string | null {
  const e = cat.entries[idx];
  const what = `第${position}个志愿（${e.school.name} ${e.majorName ?? ''}）`.replace(' ）', '）');
  const needed = eligibilityNeeded(e.planTags);
  const declared = declaredEligibility(student);
  const missing = needed.filter((k) => !declared.has(k));
  if (missing.length) return `${what}是${missing.join('、')}计划，该学生未填写${missing.join('、')}资格，不能填报（可在学生信息的「专项资格」中填写）`;
  if (student.score != null && e.school.level !== '专科') {
    const below = belowUndergraduateLine(cat, student.score);
    if (below) return `${what}不能填报：${below}`;
  }
  if (cat.has.subjectReq && !subjectsAllow(e.subjectReq, subjectNameSet(student.subjects))) {
    return `${what}要求选考 ${e.subjectReq}，与该学生的选考科目不符，不能填报`;
  }
  return null;
}
