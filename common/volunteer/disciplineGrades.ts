/**
 * The grades of the 第四轮学科评估 (教育部学位与研究生教育发展中心, 2017) and what each means: the published share of
 * the participating 学科点 the grade covers, counted from the top. Server (schoolSubjectEvaluate, the tool cabinet) and
 * console (院校详情) show the same wording, so it lives here once.
 */
export const EVALUATION_ROUND = '第四轮学科评估';
export const EVALUATION_YEAR = 2017;

export const DISCIPLINE_GRADES = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-'] as const;
export type DisciplineGrade = (typeof DISCIPLINE_GRADES)[number];

export const GRADE_MEANINGS: Readonly<Record<DisciplineGrade, string>> = {
  'A+': '前2%或前2名',
  A: '2%–5%',
  'A-': '5%–10%',
  'B+': '10%–20%',
  B: '20%–30%',
  'B-': '30%–40%',
  'C+': '40%–50%',
  C: '50%–60%',
  'C-': '60%–70%',
};

/** The meaning of a grade, or '' for a string that is not one (never shown as a developer message). */
export function gradeMeaning(grade: string): string {
  return (GRADE_MEANINGS as Record<string, string>)[grade] ?? '';
}

/** Sort key: A+ first, unknown grades last. */
export function gradeOrder(grade: string): number {
  const i = (DISCIPLINE_GRADES as readonly string[]).indexOf(grade);
  return i < 0 ? DISCIPLINE_GRADES.length : i;
}
