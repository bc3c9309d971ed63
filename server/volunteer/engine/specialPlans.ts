/**
 * Special plans (计划类型) read from the notes printed in a line's name. The 投档表 has no plan-type column: a 地方专项,
 * 定向, 中外合作 or 师范 line is told apart only by a note in brackets after the major (山东: 日语(地方专项计划),
 * 交通运输(中外合作办学), 英语(师范类，非西藏生源定向西藏就业)) or, for 院校专业组 provinces, after the school
 * (广东: 华南师范大学(地方专项)). docs/volunteer-model.md "Special plans" lists the rules and the decisions.
 *
 * Pure: no database. Tags are derived once per line when the catalogue is built. The kinds that need the student's
 * declared eligibility (专项资格) before they are offered or accepted in a plan are ELIGIBILITY_KINDS, shared with the
 * console (common/volunteer/students.ts).
 */
import { ELIGIBILITY_KINDS, type EligibilityKind } from '../../../common/volunteer/students.js';

/** Plan types anyone may fill: shown as tags and usable as filters only. */
export const OPEN_KINDS = ['中外合作', '师范', '校企合作'] as const;
export type OpenKind = (typeof OPEN_KINDS)[number];

export type PlanTag = EligibilityKind | OpenKind;

/** 普通: a line with no special-plan tag (师范 and 校企合作 lines count as 普通 too: they need nothing and cost nothing extra). */
export const ORDINARY = '普通';

/** Every value of the 计划类型 filter, in the order the console lists them. */
export const PLAN_TYPES = [ORDINARY, '中外合作', '师范', '校企合作', ...ELIGIBILITY_KINDS] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

const ELIGIBILITY_SET: ReadonlySet<string> = new Set(ELIGIBILITY_KINDS);

/**
 * Rules over the bracketed notes, first match per tag. Only the notes are read (not the whole name), so 中国少数民族语言文学
 * is not a 民族班 and 华南师范大学 is not a 师范 plan; 预科 and 民族班 are read from the whole name because the data print
 * them as the name itself (本科预科班（招收边防军人子女）).
 */
const NOTE_RULES: ReadonlyArray<readonly [PlanTag, RegExp]> = [
  ['国家专项', /国家专项/],
  ['地方专项', /地方专项/],
  // 高校专项 is also published as 农村学生专项 / 农村专项计划 (the universities' own rural plan).
  ['高校专项', /高校专项|农村(学生)?专项/],
  ['公费师范', /公费师范|优师(专项)?计划|免费师范/],
  ['定向', /定向/],
  ['民族班', /民族班|只招少数民族|少数民族考生/],
  // 中外合作办学, 中美合作, 与英国萨里大学合作办学 …; a company partnership (与…公司合作办学) is 校企合作, not this.
  ['中外合作', /中外合作|中[美英德法韩俄澳加意日新荷港]合作|与[^，,]*(大学|学院)[^，,]*合作/],
  ['校企合作', /校企合作|与[^，,]*(公司|集团)[^，,]*合作/],
  // 师范类, 师范, 含师范类, 职教师范, 师范兼非师范 — but not 非师范 alone.
  ['师范', /(^|[^非])师范/],
];

const STRICT_SINO_FOREIGN = /中外合作|中[美英德法韩俄澳加意日新荷港]合作/;

const WHOLE_NAME_RULES: ReadonlyArray<readonly [PlanTag, RegExp]> = [
  ['预科', /预科/],
  ['民族班', /民族班/],
];

/** The bracketed notes of a name: 英语(师范类，非西藏生源定向西藏就业) → ['师范类，非西藏生源定向西藏就业']. */
function notesOf(name: string): string[] {
  return [...name.matchAll(/[（(]([^（）()]*)[)）]/g)].map((m) => m[1]);
}

/** Tags of one line, from its major name and (院校专业组 provinces) the notes in its school name; fixed order. */
export function planTagsOf(majorName: string | null | undefined, schoolName?: string | null): PlanTag[] {
  const notes = [...notesOf(majorName ?? ''), ...notesOf(schoolName ?? '')].join('|');
  const whole = majorName ?? '';
  const found = new Set<PlanTag>();
  for (const [tag, re] of NOTE_RULES) if (re.test(notes)) found.add(tag);
  for (const [tag, re] of WHOLE_NAME_RULES) if (re.test(whole)) found.add(tag);
  // 与…学院合作 in a 校企合作 note is a company's training school (华为ICT学院), not a foreign partner.
  if (found.has('校企合作') && !STRICT_SINO_FOREIGN.test(notes)) found.delete('中外合作');
  // 公费师范 already says 师范; keep one tag for it.
  if (found.has('公费师范')) found.delete('师范');
  return [...PLAN_TYPES.filter((t): t is PlanTag => found.has(t as PlanTag))];
}

/** The tags of a line that need eligibility. */
export function eligibilityNeeded(tags: readonly PlanTag[]): EligibilityKind[] {
  return tags.filter((t): t is EligibilityKind => ELIGIBILITY_SET.has(t));
}

/** Whether a student who declared `declared` may fill a line with these tags: every eligibility tag must be declared. */
export function eligibleFor(tags: readonly PlanTag[], declared: ReadonlySet<string>): boolean {
  for (const t of tags) if (ELIGIBILITY_SET.has(t) && !declared.has(t)) return false;
  return true;
}

/** The plan types a line belongs to for the 计划类型 filter: its tags, or 普通 when none of them is a special plan. */
export function planTypesOf(tags: readonly PlanTag[]): PlanType[] {
  const special = tags.some((t) => ELIGIBILITY_SET.has(t) || t === '中外合作');
  return special ? [...tags] : [ORDINARY, ...tags];
}

/** Whether a value is one of the eligibility kinds. */
export function isEligibilityKind(v: string): v is EligibilityKind {
  return ELIGIBILITY_SET.has(v);
}
