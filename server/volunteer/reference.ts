import fs from 'node:fs';
import { DISCIPLINE_GRADES, EVALUATION_ROUND, EVALUATION_YEAR, gradeMeaning, gradeOrder } from '../../common/volunteer/disciplineGrades.js';
import { BCUR_YEAR, DOUBLE_FIRST_CLASS_YEAR, type SchoolReferenceView } from '../../common/volunteer/schoolReference.js';
import { parseCsv } from '../db/seed/admission.js';

/**
 * School reference data for the 院校百科 (issue 27, item 1): 软科中国大学排名 2026 主榜, 第四轮学科评估 (2017) and the
 * second round of 双一流建设学科 (2022). The three CSVs are copies of ../shared/data/china-reference (see the README
 * beside the copies); the server never reads ../shared.
 *
 * The files carry no 院校代码, so they are joined to the admission catalogue's schools by name (see `resolve`): brackets
 * normalised (（北京） = (北京)), then the explicit tables below, then a campus falls back to its university. Read once,
 * lazily, on the first call: 6k rows, and every caller needs an index over all of them.
 */
const DIR = new URL('../db/seed/data/china-reference/', import.meta.url);
export const BCUR_FILE = new URL('bcur_shanghairanking_2026_main.csv', DIR);
export const EVALUATION_FILE = new URL('discipline_eval_round4_2017.csv', DIR);
export const DOUBLE_FIRST_CLASS_FILE = new URL('double_first_class_2022.csv', DIR);

/**
 * Names the 2017 evaluation (and one 2022 双一流 row) prints that the school has since changed: old name → the name the
 * admission catalogue and the 2026 ranking use. Every entry is a renaming approved by the MoE after 2017 (学院 → 大学
 * and the like) or a military school printed with its former name in brackets; nothing else is aliased, so a school
 * absent from the catalogue simply has no reference data.
 */
export const RENAMED_SCHOOLS: ReadonlyMap<string, string> = new Map([
  ['上海电力学院', '上海电力大学'], // 2018
  ['上海体育学院', '上海体育大学'], // 2023; also the 2022 双一流 list
  ['信阳师范学院', '信阳师范大学'], // 2023
  ['郑州轻工业学院', '郑州轻工业大学'], // 2019
  ['湖南商学院', '湖南工商大学'], // 2019
  ['湖北民族学院', '湖北民族大学'], // 2018
  ['广西师范学院', '南宁师范大学'], // 2018
  ['四川理工学院', '四川轻化工大学'], // 2018
  ['蚌埠医学院', '蚌埠医科大学'], // 2024
  ['桂林医学院', '桂林医科大学'], // 2024
  ['遵义医学院', '遵义医科大学'], // 2018
  ['西安财经学院', '西安财经大学'], // 2019
  ['甘肃政法学院', '甘肃政法大学'], // 2019
  ['河北中医学院', '河北中医药大学'], // 2023
  ['云南中医学院', '云南中医药大学'], // 2018
  ['贵阳中医学院', '贵州中医药大学'], // 2018
  ['成都学院', '成都大学'], // 2018
  ['新乡医学院', '河南医药大学'], // 2025; the catalogue's 院校标识码 4141010472 is 新乡医学院's
  // Military schools, printed in 2017 with the former name in brackets (the 2017 reform of 军队院校).
  ['海军军医大学(第二军医大学)', '海军军医大学'],
  ['空军军医大学(第四军医大学)', '空军军医大学'],
  ['陆军工程大学(原解放军理工大学)', '陆军工程大学'],
  ['海军航空大学(原海军航空工程学院)', '海军航空大学'],
  ['航天工程大学(原装备学院)', '航天工程大学'],
]);

/**
 * Universities that took part in the 第四轮学科评估 jointly with their sister university and were published under the
 * shared name without (北京)/(华东)/(武汉): the grade belongs to both, and the console says so.
 */
export const JOINT_2017: ReadonlyMap<string, string> = new Map([
  ['中国石油大学', '第四轮学科评估中，中国石油大学（北京）与中国石油大学（华东）联合参评，结果以「中国石油大学」公布'],
  ['中国地质大学', '第四轮学科评估中，中国地质大学（北京）与中国地质大学（武汉）联合参评，结果以「中国地质大学」公布'],
  ['中国矿业大学', '第四轮学科评估中，中国矿业大学与中国矿业大学（北京）联合参评，结果以「中国矿业大学」公布'],
]);

/**
 * Parts of a university the admission catalogue lists as a school of their own (own 院校代码) whose name has no campus
 * bracket: the ranking, evaluation and 双一流 are the university's. Bracketed campuses (哈尔滨工业大学(威海),
 * 北京师范大学(珠海校区), 华北电力大学(保定)) and …校区 suffixes need no entry: `resolve` strips them.
 */
export const PART_OF: ReadonlyMap<string, string> = new Map([
  ['北京大学医学部', '北京大学'],
  ['复旦大学医学院', '复旦大学'],
  ['上海交通大学医学院', '上海交通大学'],
  ['浙江大学医学院', '浙江大学'],
]);

export interface BcurRow {
  /** As published: '2', or '500+' for the band. Ties share a rank. */
  rank: string;
  /** The numeric rank, or null for the 500+ band. */
  rankNumeric: number | null;
  /** Total score, or null for the 500+ band (not published). */
  score: number | null;
  /** 综合 / 理工 / 师范 / 农业 / 林业. */
  category: string;
  province: string;
  /** 双一流 / 985 / 211. */
  tags: string[];
}

export interface Evaluation {
  disciplineCode: string;
  disciplineName: string;
  grade: string;
}

export interface SchoolReference {
  bcur: BcurRow | null;
  doubleFirstClass: { disciplines: string[]; selfDetermined: boolean } | null;
  evaluations: Evaluation[];
  /** The university whose data this is when the name asked for is a campus or a part of it (else null). */
  campusOf: string | null;
  /** A remark on the evaluation (joint 2017 entries), or null. */
  evaluationNote: string | null;
}

interface Reference {
  bcur: Array<BcurRow & { name: string }>;
  bcurByName: Map<string, BcurRow & { name: string }>;
  dfcByName: Map<string, { disciplines: string[]; selfDetermined: boolean }>;
  evalByName: Map<string, Evaluation[]>;
  evalByDiscipline: Map<string, Array<{ school: string; grade: string }>>;
  disciplines: Array<{ code: string; name: string }>;
}

let reference: Reference | null = null;

/** Full-width brackets and spaces as the catalogue prints them: 中国石油大学（华东） = 中国石油大学(华东). */
export function normaliseSchoolName(name: string): string {
  return name.replace(/（/g, '(').replace(/）/g, ')').replace(/\s+/g, '').trim();
}

function canonical(name: string): string {
  const n = normaliseSchoolName(name);
  return RENAMED_SCHOOLS.get(n) ?? n;
}

function read(file: URL): Record<string, string>[] {
  return parseCsv(fs.readFileSync(file, 'utf8'));
}

function load(): Reference {
  if (reference) return reference;
  const bcur = read(BCUR_FILE).map((r) => {
    const numeric = Number(r.rank);
    const score = r.total_score === '' ? null : Number(r.total_score);
    return {
      name: canonical(r.school_name_zh),
      rank: r.rank,
      rankNumeric: Number.isInteger(numeric) && numeric > 0 ? numeric : null,
      score: score != null && Number.isFinite(score) ? score : null,
      category: r.category_zh,
      province: r.province_zh,
      tags: r.tags_zh ? r.tags_zh.split('/').filter(Boolean) : [],
    };
  });
  const bcurByName = new Map(bcur.map((r) => [r.name, r]));

  const dfcByName = new Map<string, { disciplines: string[]; selfDetermined: boolean }>();
  for (const r of read(DOUBLE_FIRST_CLASS_FILE)) {
    const name = canonical(r.school_name_zh);
    const entry = dfcByName.get(name) ?? { disciplines: [], selfDetermined: false };
    if (r.self_determined === 'Y') entry.selfDetermined = true;
    if (r.discipline_name_zh && !entry.disciplines.includes(r.discipline_name_zh)) entry.disciplines.push(r.discipline_name_zh);
    dfcByName.set(name, entry);
  }

  const evalByName = new Map<string, Evaluation[]>();
  const evalByDiscipline = new Map<string, Array<{ school: string; grade: string }>>();
  const disciplines = new Map<string, string>();
  for (const r of read(EVALUATION_FILE)) {
    const name = canonical(r.school_name_zh);
    const ev = { disciplineCode: r.discipline_code, disciplineName: r.discipline_name_zh, grade: r.grade };
    evalByName.set(name, [...(evalByName.get(name) ?? []), ev]);
    evalByDiscipline.set(r.discipline_code, [...(evalByDiscipline.get(r.discipline_code) ?? []), { school: name, grade: r.grade }]);
    disciplines.set(r.discipline_code, r.discipline_name_zh);
  }
  // Best grade first, then by discipline code (the catalogue's order), so a school's strengths lead.
  for (const list of evalByName.values()) list.sort((a, b) => gradeOrder(a.grade) - gradeOrder(b.grade) || a.disciplineCode.localeCompare(b.disciplineCode));
  for (const list of evalByDiscipline.values()) list.sort((a, b) => gradeOrder(a.grade) - gradeOrder(b.grade) || a.school.localeCompare(b.school, 'zh'));

  reference = {
    bcur,
    bcurByName,
    dfcByName,
    evalByName,
    evalByDiscipline,
    disciplines: [...disciplines].map(([code, name]) => ({ code, name })).sort((a, b) => a.code.localeCompare(b.code)),
  };
  return reference;
}

/**
 * The key a school name is found under in one index: the name itself; the university of a listed part (PART_OF);
 * a campus without its campus (…校区 or …分校, then a final bracket: 中国石油大学(北京)克拉玛依校区 → 中国石油大学(北京) → 中国石油大学,
 * the last step being the joint 2017 name). Returns the key and whether it is another school's (a campus fallback).
 */
function resolve<T>(index: Map<string, T>, name: string): { key: string; value: T; campus: boolean } | null {
  const start = canonical(name);
  const candidates = [start];
  const part = PART_OF.get(start);
  if (part) candidates.push(part);
  let n = start;
  for (;;) {
    // One step at a time, so 中国石油大学(北京)克拉玛依校区 tries 中国石油大学(北京) before 中国石油大学.
    const campus = n.replace(/(?<=大学|学院|\))[^()]{2,6}(校区|分校)$/, '');
    const next = campus !== n ? campus : n.replace(/\([^()]+\)$/, '');
    if (next === n || next.length < 2) break;
    candidates.push(next);
    n = next;
  }
  for (const [i, key] of candidates.entries()) {
    const value = index.get(key);
    if (value !== undefined) return { key, value, campus: i > 0 };
  }
  return null;
}

/** Everything the reference files say about one school (by the name the catalogue prints). */
export function schoolReference(name: string): SchoolReference {
  const ref = load();
  const bcur = resolve(ref.bcurByName, name);
  const dfc = resolve(ref.dfcByName, name);
  const ev = resolve(ref.evalByName, name);
  // A joint 2017 name (中国石油大学) is not "another school": evaluationNote explains it instead.
  const campusOf = [bcur, dfc, ev].find((r) => r?.campus && !JOINT_2017.has(r.key))?.key ?? null;
  const { name: _n, ...bcurRow } = bcur?.value ?? { name: '' };
  return {
    bcur: bcur ? (bcurRow as BcurRow) : null,
    doubleFirstClass: dfc ? { disciplines: [...dfc.value.disciplines], selfDetermined: dfc.value.selfDetermined } : null,
    evaluations: ev ? ev.value.map((e) => ({ ...e })) : [],
    campusOf,
    evaluationNote: ev ? (JOINT_2017.get(ev.key) ?? null) : null,
  };
}

/** The school's 第四轮学科评估 grade in one 一级学科 (code such as 0812), or null when it was not published. */
export function disciplineGrade(schoolName: string, disciplineCode: string): string | null {
  const ev = resolve(load().evalByName, schoolName);
  return ev?.value.find((e) => e.disciplineCode === disciplineCode)?.grade ?? null;
}

/** The evaluation grades of one school, each with its meaning (schoolSubjectEvaluate, the tool cabinet). */
export function schoolEvaluations(schoolName: string) {
  const ref = schoolReference(schoolName);
  return {
    year: EVALUATION_YEAR,
    note: ref.evaluationNote,
    campusOf: ref.campusOf,
    list: ref.evaluations.map((e) => ({ ...e, meaning: gradeMeaning(e.grade) })),
  };
}

/** The reference data of one school as the console shows it (each part with its year). */
export function referenceView(schoolName: string): SchoolReferenceView {
  const ref = schoolReference(schoolName);
  return {
    bcur: ref.bcur ? { year: BCUR_YEAR, ...ref.bcur } : null,
    doubleFirstClass: ref.doubleFirstClass ? { year: DOUBLE_FIRST_CLASS_YEAR, round: 2, ...ref.doubleFirstClass } : null,
    evaluation: {
      year: EVALUATION_YEAR,
      round: EVALUATION_ROUND,
      note: ref.evaluationNote,
      list: ref.evaluations.map((e) => ({ ...e, meaning: gradeMeaning(e.grade) })),
    },
    campusOf: ref.campusOf,
  };
}

/** 「软科中国大学排名 2026：第 2 名」, or null for a school not on the list. */
export function rankText(view: SchoolReferenceView): string | null {
  const b = view.bcur;
  if (!b) return null;
  return `软科中国大学排名 ${b.year}：${b.rankNumeric == null ? `${b.rank} 名` : `第 ${b.rank} 名`}`;
}

/** The text of the 双一流学科 tab (the spec's tab content is a string), or null without data. */
export function doubleFirstClassText(view: SchoolReferenceView): string | null {
  const d = view.doubleFirstClass;
  if (!d) return null;
  const head = `第二轮“双一流”建设高校（${d.year}年公布）`;
  // A campus: the university's list, said so.
  const whose = view.campusOf ? `。${view.campusOf}` : '，';
  if (d.disciplines.length === 0) return `${head}${whose}自主确定建设学科并自行公布。`;
  return `${head}${whose}建设学科 ${d.disciplines.length} 个：${d.disciplines.join('、')}${d.selfDetermined ? '；另自主确定建设学科' : ''}。`;
}

/** The text of the 学科评估 tab: grades best first, each with its meaning; null when none was published. */
export function evaluationText(view: SchoolReferenceView): string | null {
  const e = view.evaluation;
  if (e.list.length === 0) return null;
  const lines = [`${e.round}（${e.year}年）${view.campusOf ? `，为${view.campusOf}的结果` : ''}：公布 ${e.list.length} 个一级学科`];
  for (const grade of DISCIPLINE_GRADES) {
    const names = e.list.filter((x) => x.grade === grade).map((x) => x.disciplineName);
    if (names.length) lines.push(`${grade}（${gradeMeaning(grade)}）：${names.join('、')}`);
  }
  if (e.note) lines.push(e.note);
  return lines.join('\n');
}

function page<T>(rows: T[], pageNo: number, pageSize: number) {
  const size = Math.min(Math.max(Math.trunc(pageSize) || 20, 1), 100);
  const pages = Math.max(1, Math.ceil(rows.length / size));
  const p = Math.min(Math.max(Math.trunc(pageNo) || 1, 1), pages);
  return { total: rows.length, page: p, pageSize: size, rows: rows.slice((p - 1) * size, p * size) };
}

export interface RankingFilter {
  province?: string;
  category?: string;
  tag?: string;
  keyword?: string;
  page?: number;
  pageSize?: number;
}

/** 软科 2026 主榜, filtered and paged, with the filter choices (provinces and categories in the list). */
export function rankingList(filter: RankingFilter) {
  const ref = load();
  const kw = filter.keyword ? normaliseSchoolName(filter.keyword) : '';
  const rows = ref.bcur.filter(
    (r) =>
      (!filter.province || r.province === filter.province) &&
      (!filter.category || r.category === filter.category) &&
      (!filter.tag || r.tags.includes(filter.tag)) &&
      (!kw || r.name.includes(kw)),
  );
  return {
    year: BCUR_YEAR,
    provinces: [...new Set(ref.bcur.map((r) => r.province))].sort((a, b) => a.localeCompare(b, 'zh')),
    categories: [...new Set(ref.bcur.map((r) => r.category))],
    ...page(rows, filter.page ?? 1, filter.pageSize ?? 20),
  };
}

/** The 95 一级学科 of the 2017 evaluation, with how many schools were published in each. */
export function evaluationDisciplines() {
  const ref = load();
  return ref.disciplines.map((d) => ({ ...d, count: ref.evalByDiscipline.get(d.code)?.length ?? 0 }));
}

/** The schools graded in one 一级学科, best grade first, optionally one grade only; null for an unknown code. */
export function evaluationByDiscipline(code: string, opts: { grade?: string; page?: number; pageSize?: number }) {
  const ref = load();
  const discipline = ref.disciplines.find((d) => d.code === code);
  if (!discipline) return null;
  const all = ref.evalByDiscipline.get(code) ?? [];
  const rows = all.filter((r) => !opts.grade || r.grade === opts.grade).map((r) => ({ ...r, meaning: gradeMeaning(r.grade) }));
  return { year: EVALUATION_YEAR, discipline, ...page(rows, opts.page ?? 1, opts.pageSize ?? 50) };
}

/** Names of every school in the three files (coverage checks). */
export function referenceSchoolNames() {
  const ref = load();
  return { bcur: [...ref.bcurByName.keys()], doubleFirstClass: [...ref.dfcByName.keys()], evaluation: [...ref.evalByName.keys()] };
}

/** Under which name of each file a catalogue name was found (null: not found) — the coverage report and its test. */
export function resolvedNames(name: string) {
  const ref = load();
  return {
    bcur: resolve(ref.bcurByName, name)?.key ?? null,
    doubleFirstClass: resolve(ref.dfcByName, name)?.key ?? null,
    evaluation: resolve(ref.evalByName, name)?.key ?? null,
  };
}
