import type { ChanceListRow, ChanceQuery } from '../../common/volunteer/chances.js';
import { EVALUATION_YEAR } from '../../common/volunteer/disciplineGrades.js';
import { ELIGIBILITY_KINDS } from '../../common/volunteer/students.js';
import { fail } from '../http/envelope.js';
import {
  type Catalogue,
  loadCatalogue,
  probabilityText,
  rankOf,
  rankYearFor,
  requireCatalogue,
  requireProvince,
  rowOf,
  scoreCatalogue,
  scoreStudent,
  studentRankOf,
  subjectUnknown,
} from './catalogue.js';
import { lineCautions } from './cautions.js';
import { type Actor, type Db, intParam, listParam, paging, parseJsonList, SUBJECTS, truthy } from './common.js';
import { belowUndergraduateLine, declaredEligibility, subjectNameSet, subjectsAllow } from './eligibility.js';
import { DEFAULT_SPREAD, type SpreadRules } from './engine/autofill.js';
import { autofill, prepareSegmentTable, rankForScore, type ScoredOption, TIERS, type Tier, type TierCounts } from './engine/index.js';
import { isEligibilityKind, PLAN_TYPES, type PlanType, planTypesOf } from './engine/specialPlans.js';
import { eligibilityTest, subjectTest } from './filterColumns.js';
import { landingAutofill, landingOptionsOf, landingPossible } from './landingFill.js';
import { majorFacts } from './majorClass.js';
import { disciplineOfMajor } from './majorDiscipline.js';
import { factsText, type MajorLine, majorEvaluation, majorLines } from './majorEncyclopaedia.js';
import { simulateStudentPlan } from './planSimulation.js';
import { warningsOf } from './plans.js';
import { doubleFirstClassText, evaluationText, rankText, referenceView } from './reference.js';
import { loadPlan, loadStudent, type StudentRow, validateEligibility, validateScore } from './students.js';

/** Filters of the acceptance-rate list as they arrive: the wire names of ChanceQuery, every value still to be checked. */
export type ChanceFilters = { [K in keyof ChanceQuery]?: unknown };

export { belowUndergraduateLine, subjectsAllow };

export interface ChanceSubject {
  studentId: number | null;
  name: string | null;
  province: string;
  score: number;
  rank: number | null;
  rankFlag: string | null;
  examYear: number | null;
  student: StudentRow | null;
}

/** Who the chances are for: a stored student (studentId) or an ad-hoc score (+ rank, province). */
export async function resolveSubject(db: Db, actor: Actor, input: { studentId?: unknown; score?: unknown; rank?: unknown; province?: unknown }) {
  if (input.studentId != null && input.studentId !== '') {
    const s = await loadStudent(db, actor, input.studentId);
    if (s.score == null) throw fail('请先填写该学生的高考分数');
    const cat = await requireCatalogue(db, s.province);
    const subject: ChanceSubject = {
      studentId: s.studentId,
      name: s.name,
      province: s.province,
      score: s.score,
      rank: studentRankOf(cat, s),
      rankFlag: s.rankFlag,
      examYear: s.examYear,
      student: s,
    };
    return { cat, subject };
  }
  if (input.score == null || input.score === '') throw fail('请选择学生或填写分数');
  const score = validateScore(input.score) as number;
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  const cat = await requireCatalogue(db, province);
  const given = intParam(input.rank);
  if (given != null && given <= 0) throw fail('位次必须是正整数');
  const found = given == null ? rankOf(cat, score) : null;
  const subject: ChanceSubject = {
    studentId: null,
    name: null,
    province,
    score,
    rank: given ?? found?.rank ?? null,
    rankFlag: given != null ? 'manual' : (found?.flag ?? null),
    examYear: null,
    student: null,
  };
  return { cat, subject };
}

interface Compiled {
  /** Call once per entry: it also counts the special plans held back for want of eligibility. */
  test: (idx: number) => boolean;
  notes: string[];
  /** Notes known only after every entry was tested (the special plans held back). */
  after: () => string[];
}

/** The filters of one request (eligibility by the student's score, then the chosen filters). */
function compileFilters(cat: Catalogue, f: ChanceFilters, student: StudentRow | null, score: number): Compiled {
  const notes: string[] = [];
  const tests: Array<(idx: number) => boolean> = [];
  const below = belowUndergraduateLine(cat, score);
  if (below) {
    tests.push((i) => cat.entries[i].school.level === '专科');
    notes.push(below);
  }
  const usePrefs = truthy(f.usePreferences) && student != null;
  let regions = listParam(f.region);
  let majorsAny: string[] = [];
  let tagsAny: string[] = [];
  let levels = listParam(f.level);
  if (usePrefs && student) {
    if (!regions.length) regions = parseJsonList(student.preferRegions);
    const levelPrefs = parseJsonList(student.preferLevels);
    tagsAny = levelPrefs.filter((l) => l === '985' || l === '211' || l === '双一流');
    if (!levels.length) levels = levelPrefs.filter((l) => l === '本科' || l === '专科');
    majorsAny = parseJsonList(student.preferMajors);
    if (student.tuitionCap != null) notes.push('数据未包含学费，未按学费上限筛选');
  }
  if (regions.length) {
    const set = new Set(regions);
    tests.push((i) => set.has(cat.entries[i].school.province ?? ''));
    const unknown = [...cat.schools.values()].filter((s) => !s.province).length;
    if (unknown) notes.push(`${unknown} 所院校缺少所在地数据，按地区筛选时不显示`);
  }
  const cities = listParam(f.city);
  if (cities.length) {
    const set = new Set(cities);
    tests.push((i) => set.has(cat.entries[i].school.city ?? ''));
  }
  if (levels.length) {
    const set = new Set(levels);
    tests.push((i) => set.has(cat.entries[i].school.level ?? ''));
    if (!cat.has.level) notes.push('数据未包含院校层次（本科/专科），按层次筛选无结果');
  }
  const tags = listParam(f.tags);
  if (tags.length) tests.push((i) => tags.every((t) => cat.entries[i].school.tags.includes(t)));
  if (tagsAny.length) tests.push((i) => tagsAny.some((t) => cat.entries[i].school.tags.includes(t)));
  if (f.isPublic != null && f.isPublic !== '') {
    const want = truthy(f.isPublic) ? 1 : 0;
    tests.push((i) => cat.entries[i].school.isPublic === want);
    if (!cat.has.isPublic) notes.push('数据未包含公办/民办信息，按办学性质筛选无结果');
  }
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  const keyword = text(f.keyword);
  if (keyword) tests.push((i) => cat.entries[i].school.name.includes(keyword) || (cat.entries[i].majorName ?? '').includes(keyword));
  const schoolName = text(f.schoolName);
  if (schoolName) tests.push((i) => cat.entries[i].school.name.includes(schoolName));
  const majorName = text(f.majorName);
  if (majorName) tests.push((i) => (cat.entries[i].majorName ?? '').includes(majorName));
  if (majorsAny.length) tests.push((i) => majorsAny.some((m) => (cat.entries[i].majorName ?? '').includes(m)));
  const lineIds = listParam(f.lineId);
  if (lineIds.length) {
    const wanted = new Set(lineIds.map((id) => cat.byLineId.get(Number(id))).filter((i) => i != null));
    tests.push((i) => wanted.has(i));
  }
  const codes = listParam(f.schoolCode);
  if (codes.length) {
    const set = new Set(codes);
    tests.push((i) => set.has(cat.entries[i].school.schoolCode));
  }
  const planTypes = listParam(f.planType);
  if (planTypes.length) {
    const bad = planTypes.find((t) => !(PLAN_TYPES as readonly string[]).includes(t));
    if (bad) throw fail(`计划类型不正确：${bad}（可选：${PLAN_TYPES.join('、')}）`);
    const set = new Set(planTypes);
    tests.push((i) => planTypesOf(cat.entries[i].planTags).some((t: PlanType) => set.has(t)));
  }
  // Special plans (专项, 定向, 公费师范, 预科, 民族班) only for a student who declared that eligibility (专项资格).
  const declared = student ? declaredEligibility(student) : new Set(validateEligibility(f.specialEligibility));
  if (!cat.has.subjectReq) notes.push('数据未包含选科要求，未按选科过滤，请填报前核对院校专业的选科要求');
  else if (student) {
    const mine = subjectNameSet(student.subjects);
    tests.push(subjectTest(cat, mine));
    notes.push(`只显示 ${[...mine].filter((m) => m !== '思想政治').join('/')} 可报的专业（选考科目要求不符的不显示）`);
  }
  // Counted after the other filters, so the note says how many of the lines the expert asked for were held back.
  let hidden = 0;
  // Typed-array lookups decided once per distinct value (filterColumns.ts): the query runs over every line.
  const eligible = eligibilityTest(cat, declared);
  const test = (i: number) => {
    for (let k = 0; k < tests.length; k++) if (!tests[k](i)) return false;
    if (eligible(i)) return true;
    hidden++;
    return false;
  };
  const after = () =>
    hidden
      ? [
          `已隐藏 ${hidden} 个需专项资格的志愿（专项计划、定向、公费师范、预科、民族班）：${declared.size ? `该学生只填写了${[...declared].join('、')}资格` : '该学生未填写专项资格'}`,
        ]
      : [];
  return { test, notes, after };
}

function tierList(v: unknown): Tier[] {
  const list = listParam(v);
  const bad = list.find((t) => !(TIERS as readonly string[]).includes(t));
  if (bad) throw fail(`梯度不正确：${bad}（可选：冲、稳、保）`);
  return list as Tier[];
}

function subjectNotes(cat: Catalogue, subject: ChanceSubject): string[] {
  const notes: string[] = [];
  const rankYear = rankYearFor(cat, subject.examYear);
  notes.push(
    `按${cat.year}年招生目录（投档线）估算${cat.targetYear}年高考的录取概率${subject.examYear != null && subject.examYear !== cat.targetYear ? `（考生高考年份 ${subject.examYear}）` : ''}`,
  );
  if (subject.rank == null) notes.push('缺少考生位次，按线差法估算');
  else if (subject.rankFlag === 'manual') notes.push(`按填写的位次 ${subject.rank.toLocaleString('en-US')} 计算`);
  else notes.push(`位次按${rankYear ?? cat.year}年一分一段表计算：${subject.score} 分对应位次 ${subject.rank.toLocaleString('en-US')}`);
  return notes;
}

function studentSummary(cat: Catalogue, s: ChanceSubject) {
  return {
    studentId: s.studentId,
    name: s.name,
    score: s.score,
    rank: s.rank,
    rankFlag: s.rankFlag,
    province: s.province,
    examYear: s.examYear,
    year: cat.year,
    targetYear: cat.targetYear,
    rankYear: rankYearFor(cat, s.examYear),
  };
}

async function markers(db: Db, subject: ChanceSubject, cat: Catalogue) {
  if (subject.studentId == null) return { liked: new Set<number>(), inPlan: new Set<number>() };
  const likes = await db.selectFrom('volLike').select('lineId').where('studentId', '=', subject.studentId).execute();
  const plan = await loadPlan(db, subject.studentId);
  const items = plan ? await db.selectFrom('volPlanItem').select('lineId').where('planId', '=', plan.planId).execute() : [];
  // An older year's line of an offered programme marks the programme's catalogue line.
  const current = (id: number) => {
    const idx = cat.byLineId.get(id);
    return idx == null ? id : cat.entries[idx].lineId;
  };
  return { liked: new Set(likes.map((l) => current(l.lineId))), inPlan: new Set(items.map((i) => current(i.lineId))) };
}

/**
 * Acceptance rates of one student over the catalogue, filtered, sorted and paged. tierCounts count every option
 * that passed the filters except the tier filter (for the tier tabs).
 */
export async function enrollmentChance(db: Db, cat: Catalogue, subject: ChanceSubject, f: ChanceFilters) {
  const scored = scoreCatalogue(cat, subject.score, subject.rank);
  const filters = compileFilters(cat, f, subject.student, subject.score);
  const tiers = tierList(f.tier);
  const includeUnreachable = truthy(f.includeUnreachable);
  const tierCounts: Record<Tier | 'none', number> = { 冲: 0, 稳: 0, 保: 0, none: 0 };
  let unreachable = 0;
  const sort = typeof f.sort === 'string' && f.sort ? f.sort : 'rank';
  if (!['rank', 'probability', 'score'].includes(sort)) throw fail('排序方式不正确（可选：rank、probability、score）');
  const order = cat.rankOrder;
  const picked: number[] = [];
  for (const i of order) {
    if (!filters.test(i)) continue;
    const s = scored[i];
    if (s.flags.includes('unreachable')) {
      unreachable++;
      if (!includeUnreachable) continue;
    }
    tierCounts[s.tier ?? 'none']++;
    if (tiers.length && (s.tier == null || !tiers.includes(s.tier))) continue;
    picked.push(i);
  }
  if (sort === 'probability') picked.sort((a, b) => (scored[a].probability ?? 2) - (scored[b].probability ?? 2));
  else if (sort === 'score') picked.sort((a, b) => cat.entries[b].years[0].minScore - cat.entries[a].years[0].minScore);
  const { pageSize, offset } = paging(f);
  const page = truthy(f.all) ? picked : picked.slice(offset, offset + pageSize);
  const mark = await markers(db, subject, cat);
  // The explanation string is most of a row's weight (12 MB for every line of a student): built only when asked.
  const explain = f.explain == null || f.explain === '' || truthy(f.explain);
  const rows: ChanceListRow[] = page.map((i) => {
    const r = rowOf(cat, i, scored[i], explain);
    return { ...r, liked: mark.liked.has(r.lineId), inPlan: mark.inPlan.has(r.lineId) };
  });
  const notes = [...subjectNotes(cat, subject), ...filters.notes, ...filters.after()];
  if (!includeUnreachable && unreachable) notes.push(`已隐藏 ${unreachable} 个录取概率低于 5% 的志愿（勾选「含概率低于 5% 的」可显示）`);
  return { rows, total: picked.length, student: studentSummary(cat, subject), tierCounts, unreachableCount: unreachable, notes };
}

/** The advance batch (提前批): answers clearly when the province has no such data. */
export async function advanceChance(db: Db, actor: Actor, input: ChanceFilters & { studentId?: unknown; score?: unknown; rank?: unknown; province?: unknown }) {
  let province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  if (input.studentId != null && input.studentId !== '') province = (await loadStudent(db, actor, input.studentId)).province;
  await requireProvince(db, province);
  const cat = await loadCatalogue(db, province, 'advance');
  if (!cat) {
    return {
      available: false,
      msg: `${province}暂无提前批投档数据，无法计算提前批录取概率；提前批请参考省教育招生考试院公布的招生计划`,
      rows: [] as ChanceListRow[],
      total: 0,
      batch: '提前批',
      province,
    };
  }
  const { subject } = await resolveSubject(db, actor, input);
  const result = await enrollmentChance(db, cat, subject, input);
  return { available: true, msg: '查询成功', batch: cat.batches.join('、'), province, ...result };
}

const DEFAULT_COUNTS: TierCounts = { 冲: 20, 稳: 40, 保: 36 };

function countsOf(input: Record<string, unknown>): TierCounts {
  const c = (input.counts ?? {}) as Record<string, unknown>;
  const pick = (t: Tier, alias: string) => {
    const v = c[t] ?? c[alias] ?? input[alias];
    if (v == null || v === '') return DEFAULT_COUNTS[t];
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 200) throw fail(`${t}的数量必须是 0 到 200 之间的整数`);
    return n;
  };
  return { 冲: pick('冲', 'chong'), 稳: pick('稳', 'wen'), 保: pick('保', 'bao') };
}

/** The spreading caps of an auto-fill: maxPerSchool (1–20, default 3) and maxPerScore (1–20, default 2). */
function spreadOf(input: Record<string, unknown>): SpreadRules {
  const cap = (name: 'maxPerSchool' | 'maxPerScore', what: string) => {
    const v = input[name];
    if (v == null || v === '') return DEFAULT_SPREAD[name];
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 20) throw fail(`${what}必须是 1 到 20 之间的整数`);
    return n;
  };
  return { maxPerSchool: cap('maxPerSchool', '每所院校的志愿数上限'), maxPerScore: cap('maxPerScore', '同一最低分的志愿数上限') };
}

/** 智能填报 strategies: where the student lands (default), or the older fixed 冲/稳/保 quotas. */
export type AutofillStrategy = 'landing' | 'tiers';

function strategyOf(input: Record<string, unknown>): AutofillStrategy {
  const v = input.strategy;
  if (v === 'landing' || v === 'tiers') return v;
  if (v != null && v !== '') throw fail('填报方式不正确（可选：landing 按录取去向优化、tiers 按冲稳保数量）');
  // A request that names tier counts asks for quotas (the API before issue 24).
  return input.counts != null || input.chong != null || input.wen != null || input.bao != null ? 'tiers' : 'landing';
}

/**
 * Auto-fill proposal over the filtered options — so it never proposes a line the student may not fill (一段线,
 * 选考科目, 专项资格); nothing is saved. Strategy 'landing' (landingFill.ts) chooses and orders the lines for the best
 * place the student can safely reach; 'tiers' fills fixed 冲/稳/保 quotas (engine autofill, spread mode).
 */
export async function autofillPlan(
  db: Db,
  cat: Catalogue,
  subject: ChanceSubject,
  input: ChanceFilters & { counts?: unknown; allowWasteful?: unknown; strategy?: unknown },
) {
  const raw = input as Record<string, unknown>;
  let strategy = strategyOf(raw);
  const fallback: string[] = [];
  if (strategy === 'landing' && (!subject.student || !landingPossible(cat, subject.student))) {
    // No fitted model for the province (or no rank): the landing cannot be simulated, so the quotas answer.
    if (raw.strategy === 'landing') throw fail('该省暂无录取模型或考生缺少位次，无法按录取去向优化；请改用「按冲稳保数量」填报');
    strategy = 'tiers';
    fallback.push(`${cat.province}暂无${cat.year}年的录取模型（或考生缺少位次），按冲稳保数量填报`);
  }
  // The spreading caps are checked in either strategy (the landing uses maxPerSchool; maxPerScore is the quotas').
  const spread = spreadOf(raw);
  const landing = strategy === 'landing' ? landingOptionsOf(raw) : null;
  const counts = strategy === 'tiers' ? countsOf(raw) : DEFAULT_COUNTS;
  if (counts.冲 + counts.稳 + counts.保 === 0) throw fail('请至少选择一个志愿数量');
  const scored = scoreCatalogue(cat, subject.score, subject.rank);
  // The family's stored preferences (regions, levels) apply unless the request says otherwise (issue 24: a family
  // that asked for 山东/江苏 must not get 24 provinces).
  const filterInput = landing && (input.usePreferences == null || input.usePreferences === '') ? { ...input, usePreferences: 1 } : input;
  const filters = compileFilters(cat, filterInput, subject.student, subject.score);
  const candidates: number[] = [];
  let unknownSubjects = 0;
  for (const i of cat.rankOrder) {
    if (!filters.test(i)) continue;
    // 选科要求未知: never proposed (the family could not check it could fill it); the expert may still add it by hand.
    if (subjectUnknown(cat, cat.entries[i])) {
      unknownSubjects++;
      continue;
    }
    candidates.push(i);
  }
  const mark = await markers(db, subject, cat);
  const itemOf = (idx: number, n: number, filledFor: Tier) => {
    const row = rowOf(cat, idx, scored[idx]);
    return { sort: n + 1, ...row, filledFor, cautions: lineCautions(cat, idx), liked: mark.liked.has(row.lineId), inPlan: mark.inPlan.has(row.lineId) };
  };
  const common = [
    ...subjectNotes(cat, subject),
    ...filters.notes,
    ...filters.after(),
    ...(unknownSubjects ? [`${unknownSubjects} 个选科要求未知的志愿不参与智能填报`] : []),
  ];
  if (landing) {
    if (!subject.student) throw fail('请选择学生');
    const out = candidates.length || landing.locked.length ? landingAutofill(cat, subject.student, scored, candidates, landing) : null;
    const items = (out?.picks ?? []).map((p, n) => ({ ...itemOf(p.idx, n, p.tier), locked: p.locked, safety: p.safety, preferred: p.preferred }));
    const effective: TierCounts = { 冲: 0, 稳: 0, 保: 0 };
    for (const it of items) if (it.tier) effective[it.tier]++;
    return {
      strategy,
      items,
      requested: null,
      effectiveCounts: effective,
      shortfalls: [],
      simulation: out?.simulation ?? null,
      explanation: out?.explanation ?? [],
      notes: [...common, ...(out?.notes ?? [])],
      warnings: warningsOf(items, cat),
      slotLimit: cat.rules.slotLimit,
      student: studentSummary(cat, subject),
    };
  }
  const pool = candidates.map((i) => scored[i]);
  const indexOf = new Map<ScoredOption, number>(candidates.map((i) => [scored[i], i]));
  const result = autofill(pool, {
    counts,
    slotLimit: cat.rules.slotLimit,
    allowWasteful: truthy(input.allowWasteful),
    spread,
  });
  const items = result.picks.map((p, n) => itemOf(indexOf.get(p.scored) as number, n, p.filledFor));
  const simulation =
    subject.student && items.length
      ? simulateStudentPlan(
          cat,
          subject.student,
          items.map((it) => ({ sort: it.sort, lineId: it.lineId, tier: it.tier })),
        )
      : null;
  return {
    strategy,
    items,
    requested: counts,
    effectiveCounts: result.effectiveCounts,
    shortfalls: result.shortfalls,
    simulation,
    explanation: [] as string[],
    notes: [...common, ...fallback, ...result.notes],
    warnings: warningsOf(items, cat),
    slotLimit: cat.rules.slotLimit,
    student: studentSummary(cat, subject),
  };
}

/** One school's lines (with chances when a student is given). */
export async function scoreSchool(db: Db, actor: Actor, input: { schoolCode?: unknown; studentId?: unknown; province?: unknown }) {
  const code = typeof input.schoolCode === 'string' ? input.schoolCode.trim() : '';
  if (!code) throw fail('请选择院校');
  const { cat, scored } = await optionalScores(db, actor, input);
  const school = cat.schools.get(code);
  if (!school) throw fail(`院校不存在：${code}`);
  const lines = (cat.bySchool.get(code) ?? []).map((i) => rowOf(cat, i, scored?.[i] ?? null));
  return { school, lines };
}

async function optionalScores(db: Db, actor: Actor, input: { studentId?: unknown; province?: unknown }) {
  if (input.studentId != null && input.studentId !== '') {
    const { cat, subject } = await resolveSubject(db, actor, input);
    return { cat, scored: scoreCatalogue(cat, subject.score, subject.rank) as ScoredOption[] | null };
  }
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  return { cat: await requireCatalogue(db, province), scored: null as ScoredOption[] | null };
}

/** 一分一段: the table (optionally a score range) and the lookup of one score. */
export async function scoreStageFilter(db: Db, input: { province?: unknown; year?: unknown; scoreMin?: unknown; scoreMax?: unknown; score?: unknown }) {
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  const cat = await requireCatalogue(db, province);
  const year = intParam(input.year) ?? cat.segmentYear ?? cat.year;
  const all = await db
    .selectFrom('gkScoreSegment')
    .select(['score', 'cumulativeRank'])
    .where('examProvince', '=', province)
    .where('year', '=', year)
    .where('track', '=', cat.track)
    .orderBy('score', 'desc')
    .execute();
  if (!all.length) throw fail(`暂无${province}${year}年的一分一段数据`);
  const table = all.map((r, i) => ({ score: r.score, count: r.cumulativeRank - (i > 0 ? all[i - 1].cumulativeRank : 0), cumulativeRank: r.cumulativeRank }));
  const min = intParam(input.scoreMin);
  const max = intParam(input.scoreMax);
  const rows = table.filter((r) => (min == null || r.score >= min) && (max == null || r.score <= max));
  const score = input.score == null || input.score === '' ? null : validateScore(input.score);
  let lookup = null;
  if (score != null) {
    lookup = { score, ...rankForScore(prepareSegmentTable(all), score) };
  }
  return { province, year, track: cat.track, rows, lookup };
}

/** Rank of a score and the lines whose lowest score is within score ± range (同分去向). */
export async function scoreStageInfo(db: Db, input: { province?: unknown; score?: unknown; range?: unknown; pageNum?: unknown; pageSize?: unknown }) {
  if (input.score == null || input.score === '') throw fail('请填写分数');
  const score = validateScore(input.score) as number;
  const range = intParam(input.range) ?? 0;
  if (range < 0 || range > 5) throw fail('分差范围必须在 0 到 5 分之间');
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  const cat = await requireCatalogue(db, province);
  const found = rankOf(cat, score);
  const hits = cat.rankOrder.filter((i) => Math.abs(cat.entries[i].years[0].minScore - score) <= range);
  const { pageSize, offset } = paging(input);
  const rows = hits.slice(offset, offset + pageSize).map((i) => {
    const r = rowOf(cat, i, null);
    return {
      lineId: r.lineId,
      schoolCode: r.schoolCode,
      schoolName: r.schoolName,
      province: r.province,
      city: r.city,
      tags: r.tags,
      majorName: r.majorName,
      minScore: r.minScore,
      minRank: r.minRank,
      year: r.years[0].year,
    };
  });
  return { rows, total: hits.length, lookup: found ? { score, ...found } : null, year: cat.year };
}

const ZY_TYPE_NAMES: Record<number, string> = { 1: '专业+院校', 2: '院校专业组', 3: '院校+专业' };
const MODE_NAMES: Record<string, string> = { old: '文理分科', '3+3': '3+3', '3+1+2': '3+1+2' };

export async function gkbInfo(db: Db, input: { province?: unknown }) {
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  const rules = await requireProvince(db, province);
  const cat = await loadCatalogue(db, province, 'regular');
  const batchLines = await db
    .selectFrom('gkBatchLine')
    .select(['year', 'track', 'batch', 'minScore'])
    .where('examProvince', '=', province)
    .orderBy('year', 'desc')
    .orderBy('minScore', 'desc')
    .execute();
  const advance = await loadCatalogue(db, province, 'advance');
  const notes: string[] = [];
  if (!advance) notes.push(`${province}暂无提前批投档数据`);
  if (cat && !cat.has.subjectReq) notes.push('数据未包含选科要求');
  if (cat && !cat.has.planCount) notes.push('数据未包含招生计划人数');
  return {
    province,
    mode: rules.mode,
    modeName: MODE_NAMES[rules.mode] ?? rules.mode,
    subjectType: rules.subjectType,
    zyType: rules.zyType,
    zyTypeName: ZY_TYPE_NAMES[rules.zyType] ?? String(rules.zyType),
    slotLimit: rules.slotLimit,
    groupMajorLimit: rules.groupMajorLimit,
    cohortSize: rules.cohortSize,
    years: cat?.years ?? [],
    batches: [...(cat?.batches ?? []), ...(advance?.batches ?? [])],
    tracks: cat ? [cat.track] : [],
    batchLineName: cat?.batchLineName ?? null,
    batchLines,
    subjects: Object.entries(SUBJECTS).map(([id, name]) => ({ id: Number(id), name })),
    notes,
  };
}

const TABS: Array<[string, string]> = [
  ['profile', '学校概况'],
  ['graduate', '硕博点'],
  ['doubleFirstClass', '双一流学科'],
  ['evaluation', '学科评估'],
  ['featuredMajors', '特色专业'],
  ['departments', '院系设置'],
  ['academicians', '院士'],
  ['alumni', '知名校友'],
];

export async function schoolHome(db: Db, actor: Actor, input: { schoolCode?: unknown; studentId?: unknown; province?: unknown }) {
  const { school, lines } = await scoreSchool(db, actor, input);
  const scores = lines.map((l) => l.minScore);
  const ranks = lines.map((l) => l.minRank).filter((r): r is number => r != null);
  const year = lines[0]?.years[0]?.year ?? null;
  const where = [school.province, school.city].filter(Boolean).join(' ') || '所在地暂无数据';
  // 院校百科 (issue 27): 软科 2026, 双一流 2022 and 第四轮学科评估 2017, joined by name (server/volunteer/reference.ts).
  const reference = referenceView(school.name);
  const rank = rankText(reference);
  const profile = `${school.name}（院校代码 ${school.schoolCode}），${where}${school.tags.length ? `，${school.tags.join('、')}院校` : ''}。${
    rank ? `${rank}（${reference.bcur?.category}类${reference.campusOf ? `，为${reference.campusOf}的排名` : ''}）。` : ''
  }${year ? `${year}年在本省投档 ${lines.length} 个专业（类），最低投档分 ${Math.min(...scores)}–${Math.max(...scores)} 分。` : ''}`;
  const filled: Record<string, string | null> = {
    doubleFirstClass: doubleFirstClassText(reference),
    evaluation: evaluationText(reference),
  };
  const tabs = TABS.map(([key, name], index) => {
    if (index === 0) return { index, key, name, available: true, content: profile };
    const content = filled[key];
    if (content) return { index, key, name, available: true, content };
    const extra = key === 'doubleFirstClass' && school.tags.includes('双一流') ? '该校为双一流建设高校，' : '';
    return { index, key, name, available: false, content: `${extra}暂无${name}数据` };
  });
  return {
    school,
    stats: {
      year,
      majorCount: lines.length,
      minScore: scores.length ? Math.min(...scores) : null,
      maxScore: scores.length ? Math.max(...scores) : null,
      minRank: ranks.length ? Math.min(...ranks) : null,
    },
    tabs,
    reference,
    lines,
  };
}

const MAJOR_MODULES: Array<[string, string]> = [
  ['majorIntroduction', '专业介绍'],
  ['eduObjective', '培养目标'],
  ['eduRequirement', '培养要求'],
  ['subjectRequirement', '学科要求'],
  ['studyDirection', '考研方向'],
  ['mainCourse', '主要课程'],
  ['famousScholar', '知名学者'],
  ['jobDirection', '就业方向'],
];

/**
 * 专业详情 (issue 27, item 2): the 2025 catalogue's facts of a catalogue major or a printed 投档表 name (and which rule
 * placed it), the province's lines that teach it with each school's 第四轮学科评估 grade (2017) in the discipline of
 * the major. Of the eight modules only 专业介绍 has data (the catalogue and the lines); the other seven stay in the
 * answer, unavailable, and the console hides them. A name the catalogue cannot place (a 试验班) falls back to the
 * lines printed with exactly that name.
 */
export async function majorDetail(db: Db, actor: Actor, input: { majorName?: unknown; schoolCode?: unknown; studentId?: unknown; province?: unknown }) {
  const majorName = typeof input.majorName === 'string' ? input.majorName.trim() : '';
  if (!majorName) throw fail('请选择专业');
  const { cat, scored } = await optionalScores(db, actor, input);
  const code = typeof input.schoolCode === 'string' ? input.schoolCode.trim() : '';
  const facts = majorFacts(majorName);
  const hits: MajorLine[] = facts
    ? majorLines(cat, facts, code || undefined)
    : cat.rankOrder
        .filter((i) => cat.entries[i].majorName === majorName && (!code || cat.entries[i].school.schoolCode === code))
        .map((index) => ({ index, via: 'major' as const }));
  if (!hits.length && !facts) throw fail(`暂无「${majorName}」的招生数据`);
  const schools = hits.map(({ index, via }) => {
    const row = rowOf(cat, index, scored?.[index] ?? null);
    return { ...row, via, evaluation: facts ? majorEvaluation(row.schoolName, facts) : null };
  });
  const scores = schools.map((s) => s.minScore);
  const schoolCount = new Set(schools.map((s) => s.schoolCode)).size;
  const top = [...new Set(schools.map((s) => s.schoolName))].slice(0, 5).join('、');
  const lines = schools.length
    ? `${cat.year}年${cat.province}共有 ${schoolCount} 所院校以 ${schools.length} 个专业（类）投档${facts ? '本专业或其专业类' : `「${majorName}」`}，最低投档分 ${Math.min(...scores)}–${Math.max(...scores)} 分；录取位次最靠前的院校：${top}。`
    : `${cat.year}年${cat.province}没有院校以本专业或其专业类投档。`;
  const intro = facts ? `${factsText(facts)}\n${lines}` : lines;
  const modules = MAJOR_MODULES.map(([key, name]) => {
    if (key === 'majorIntroduction') return { key, name, available: true, content: intro };
    if (key === 'subjectRequirement') return { key, name, available: false, content: '暂无该专业的选科要求数据，请以院校招生章程为准' };
    return { key, name, available: false, content: `暂无该专业的${name}数据` };
  });
  return {
    majorName,
    facts,
    discipline: facts ? disciplineOfMajor(facts.classCode, facts.major?.code ?? null) : null,
    evaluationYear: EVALUATION_YEAR,
    modules,
    schools,
    stats: {
      year: cat.year,
      schoolCount,
      lineCount: schools.length,
      minScore: scores.length ? Math.min(...scores) : null,
      maxScore: scores.length ? Math.max(...scores) : null,
    },
  };
}

export async function getProvince(db: Db) {
  const provinces = await db.selectFrom('gkProvince').selectAll().orderBy('province').execute();
  const cat = provinces.length ? await loadCatalogue(db, provinces[0].province, 'regular') : null;
  const byProvince = new Map<string | null, { count: number; cities: Set<string> }>();
  for (const s of cat?.schools.values() ?? []) {
    const p = byProvince.get(s.province) ?? { count: 0, cities: new Set<string>() };
    p.count++;
    if (s.city) p.cities.add(s.city);
    byProvince.set(s.province, p);
  }
  return {
    examProvinces: provinces.map((p) => ({ province: p.province, mode: p.mode, subjectType: p.subjectType, zyType: p.zyType, slotLimit: p.slotLimit })),
    schoolProvinces: [...byProvince.entries()]
      .map(([province, v]) => ({ province, label: province ?? '未知', schoolCount: v.count, cities: [...v.cities].sort() }))
      .sort((a, b) => b.schoolCount - a.schoolCount),
  };
}

export async function areaChilds(db: Db, input: { province?: unknown; examProvince?: unknown }) {
  const parent = typeof input.province === 'string' ? input.province.trim() : '';
  if (!parent) throw fail('请选择省份');
  const exam = typeof input.examProvince === 'string' && input.examProvince.trim() ? input.examProvince.trim() : '山东';
  const cat = await requireCatalogue(db, exam);
  const cities = new Set<string>();
  for (const s of cat.schools.values()) if (s.province === parent && s.city) cities.add(s.city);
  return [...cities].sort();
}

export async function ordinaryBatchFilter(db: Db, input: { province?: unknown }) {
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  const cat = await requireCatalogue(db, province);
  const regions = new Map<string, number>();
  const tags = new Map<string, number>();
  for (const s of cat.schools.values()) {
    if (s.province) regions.set(s.province, (regions.get(s.province) ?? 0) + 1);
    for (const t of s.tags) tags.set(t, (tags.get(t) ?? 0) + 1);
  }
  const notes: string[] = [];
  if (!cat.has.level) notes.push('数据未包含院校层次（本科/专科）');
  if (!cat.has.isPublic) notes.push('数据未包含公办/民办信息');
  if (!cat.has.subjectReq) notes.push('数据未包含选科要求');
  return {
    province,
    year: cat.year,
    batch: cat.batches.join('、'),
    regions: [...regions.entries()].map(([value, count]) => ({ value, label: value, count })).sort((a, b) => b.count - a.count),
    tags: ['985', '211', '双一流'].map((value) => ({ value, label: value, count: tags.get(value) ?? 0 })),
    levels: cat.has.level ? ['本科', '专科'] : [],
    isPublic: cat.has.isPublic
      ? [
          { value: 1, label: '公办' },
          { value: 0, label: '民办' },
        ]
      : [],
    tiers: [...TIERS],
    planTypes: planTypeCounts(cat),
    eligibilityKinds: [...ELIGIBILITY_KINDS],
    notes,
  };
}

/** The 计划类型 filter's values with the number of lines of each (a line can be of several: 师范 + 地方专项). */
function planTypeCounts(cat: Catalogue) {
  const counts = new Map<string, number>();
  for (const e of cat.entries) for (const t of planTypesOf(e.planTags)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return PLAN_TYPES.map((value) => ({ value, label: value, count: counts.get(value) ?? 0, needsEligibility: isEligibilityKind(value) }));
}

/** Favourites of a student, with chances computed now. */
export async function likeList(db: Db, actor: Actor, studentId: unknown) {
  const s = await loadStudent(db, actor, studentId);
  const cat = await requireCatalogue(db, s.province);
  const likes = await db.selectFrom('volLike').selectAll().where('studentId', '=', s.studentId).orderBy('likeId', 'desc').execute();
  const scored = scoreStudent(cat, s);
  return likes.flatMap((l) => {
    const idx = cat.byLineId.get(l.lineId);
    if (idx == null) return [];
    return [{ likeId: l.likeId, createTime: l.createTime, ...rowOf(cat, idx, scored?.[idx] ?? null) }];
  });
}

export async function likeAdd(db: Db, actor: Actor, input: { studentId?: unknown; lineId?: unknown }) {
  const s = await loadStudent(db, actor, input.studentId);
  const cat = await requireCatalogue(db, s.province);
  const lineId = intParam(input.lineId);
  const idx = lineId != null ? cat.byLineId.get(lineId) : undefined;
  if (idx == null) throw fail('志愿不存在或已失效');
  const canonical = cat.entries[idx].lineId;
  const exists = await db.selectFrom('volLike').select('likeId').where('studentId', '=', s.studentId).where('lineId', '=', canonical).executeTakeFirst();
  if (exists) throw fail('已收藏过该志愿');
  try {
    const row = await db
      .insertInto('volLike')
      .values({ studentId: s.studentId, lineId: canonical, userId: actor.userId, createTime: Date.now() })
      .returning('likeId')
      .executeTakeFirstOrThrow();
    return { likeId: row.likeId };
  } catch {
    throw fail('已收藏过该志愿');
  }
}

export async function likeDel(db: Db, actor: Actor, input: { studentId?: unknown; lineId?: unknown }) {
  const s = await loadStudent(db, actor, input.studentId);
  const lineId = intParam(input.lineId);
  if (lineId == null) throw fail('请选择要取消收藏的志愿');
  const res = await db.deleteFrom('volLike').where('studentId', '=', s.studentId).where('lineId', '=', lineId).executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw fail('该志愿未收藏');
}

const baseMajor = (name: string) => name.replace(/[（(].*$/, '').trim() || name;

/** Majors for a student: acceptance chances over all lines plus the student's interests. */
export async function majorRecommend(db: Db, actor: Actor, input: { studentId?: unknown; limit?: unknown }) {
  const s = await loadStudent(db, actor, input.studentId);
  if (s.score == null) throw fail('请先填写该学生的高考分数');
  const cat = await requireCatalogue(db, s.province);
  const scored = scoreStudent(cat, s) as ScoredOption[];
  const interests = parseJsonList(s.preferMajors);
  const limit = Math.min(100, Math.max(1, intParam(input.limit) ?? 30));
  const groups = new Map<string, number[]>();
  for (const i of cat.rankOrder) {
    const m = cat.entries[i].majorName;
    if (!m) continue;
    const key = baseMajor(m);
    const list = groups.get(key);
    if (list) list.push(i);
    else groups.set(key, [i]);
  }
  const rows = [...groups.entries()].map(([majorName, idxs]) => {
    const tiers: Record<Tier, number> = { 冲: 0, 稳: 0, 保: 0 };
    const good: number[] = [];
    let best: number | null = null;
    for (const i of idxs) {
      const sc = scored[i];
      if (sc.tier) tiers[sc.tier]++;
      if ((sc.tier === '稳' || sc.tier === '保') && !sc.flags.includes('wasteful')) good.push(i);
      if (sc.probability != null && !sc.flags.includes('unreachable') && (best == null || sc.probability > best)) best = sc.probability;
    }
    const matchedInterest = interests.find((k) => majorName.includes(k)) ?? null;
    return {
      majorName,
      matchedInterest,
      lineCount: idxs.length,
      reachable: good.length,
      tiers,
      bestProbability: best,
      bestProbabilityText: probabilityText(best),
      options: good.slice(0, 3).map((i) => rowOf(cat, i, scored[i])),
    };
  });
  const ranked = rows
    .filter((r) => r.reachable > 0 || r.matchedInterest)
    .sort(
      (a, b) =>
        Number(Boolean(b.matchedInterest)) - Number(Boolean(a.matchedInterest)) || b.reachable - a.reachable || a.majorName.localeCompare(b.majorName, 'zh'),
    )
    .slice(0, limit)
    .map((r) => ({ ...r, score: (r.matchedInterest ? 100 : 0) + Math.min(r.reachable, 50) }));
  const notes: string[] = [];
  if (!interests.length) notes.push('该学生未填写意向专业，按录取机会推荐');
  else if (!ranked.some((r) => r.matchedInterest)) notes.push(`没有找到与意向专业（${interests.join('、')}）匹配且有录取机会的专业`);
  return { interests, rows: ranked, notes };
}
