import fs from 'node:fs';
import type { DisciplineNode } from '../../common/volunteer/majorClasses.js';
import { type CatalogueMajor, MATCH_RULE_TEXT, type MajorFacts, type MajorMatchRule } from '../../common/volunteer/majorEncyclopaedia.js';
import { parseCsv } from '../db/seed/admission.js';
import { normaliseText, splitName } from './engine/identity.js';

/**
 * Major categories of the MoE 普通高等学校本科专业目录（2025年） (issue 24, item 2): families choose majors by 门类 and
 * 专业类, not by substring — interest 「电子」 must bring 电子信息类, never 电子商务 (电子商务类, 管理学).
 *
 * The catalogue is server/db/seed/data/china-reference/moe_undergrad_majors_2025.csv, a copy of
 * ../shared/data/china-reference (12 门类, 93 专业类, 845 majors; its README there and beside the copy). Shandong's 投档表
 * prints a 专业 or 专业类 name followed by notes in brackets (计算机类(含双学士学位), 临床医学(5+3一体化),
 * 电子信息工程(中外合作办学)); a note never changes the category, so the base name decides, and only when the base is
 * not in the catalogue (a 试验班) do the notes get a say.
 *
 * Read once, on the first call: the file is 845 rows and every caller (auto-fill, the picker) needs all of it.
 */
export const MAJOR_CATALOGUE_FILE = new URL('../db/seed/data/china-reference/moe_undergrad_majors_2025.csv', import.meta.url);

/** The category of a printed major name. majorCode is set only when the name is a catalogue major itself. */
export interface MajorClass {
  /** 门类 code, e.g. 08. */
  disciplineCode: string;
  /** 门类, e.g. 工学. */
  disciplineName: string;
  /** 专业类 code, e.g. 0809. */
  classCode: string;
  /** 专业类, e.g. 计算机类. */
  className: string;
  /** Catalogue major code with its T/K suffix (080717T), or null for a 专业类, a 试验班 or an alias. */
  majorCode: string | null;
}

/** Which rule classified a name (coverage report, and 专业详情 says which). */
export type MatchRule = MajorMatchRule;

/**
 * Names printed in the 2021–2026 Shandong 投档表 that are one character away from a catalogue major and name the
 * same discipline. All four are 职业本科 spellings (the 职业教育专业目录's 本科 names, a catalogue not in the data),
 * printed only by 职业技术大学 / 职业大学; the class is the catalogue major's, the major code is not given (it is
 * another catalogue's major). Found by comparing every unmatched base name of the six years with every catalogue
 * name by one inserted or deleted character; the two other hits are not the same major and are left out:
 * 语言科学 (北京语言大学 2026) ≠ 语言学, 能源科学与工程 (中国矿业大学 2026) ≠ 新能源科学与工程.
 */
export const MAJOR_ALIASES: ReadonlyMap<string, string> = new Map([
  // 52 lines 2021–2026: 泉州职业技术大学, 山东工程职业技术大学, 海南科技职业大学, 河北石油职业技术大学 …
  ['机械设计制造及自动化', '机械设计制造及其自动化'],
  // 36 lines 2022–2026: 河北石油职业技术大学, 河北科技工程职业技术大学, 兰州石化职业技术大学, 南京工业职业技术大学 …
  ['电气工程及自动化', '电气工程及其自动化'],
  // 19 lines 2021–2026: 上海中侨职业技术大学, 海南科技职业大学 …
  ['护理', '护理学'],
  // 13 lines 2022–2026: 贵阳康养职业大学, 运城职业技术大学 …
  ['康复治疗', '康复治疗学'],
]);

interface Catalogue {
  byMajor: Map<string, MajorClass>;
  byClass: Map<string, MajorClass>;
  /** Class stems: 计算机类 → 计算机, and without a final 学 when that leaves 2+ characters (新闻传播学类 → 新闻传播). */
  byStem: Map<string, MajorClass>;
  tree: DisciplineNode[];
  /** Every catalogue row as the encyclopaedia shows it, by major code (with T/K), in catalogue order. */
  majors: Map<string, CatalogueMajor>;
}

let catalogue: Catalogue | null = null;
const cache = new Map<string, { cls: MajorClass; rule: MatchRule } | null>();

function load(): Catalogue {
  if (catalogue) return catalogue;
  const rows = parseCsv(fs.readFileSync(MAJOR_CATALOGUE_FILE, 'utf8'));
  const byMajor = new Map<string, MajorClass>();
  const byClass = new Map<string, MajorClass>();
  const tree: DisciplineNode[] = [];
  const majors = new Map<string, CatalogueMajor>();
  for (const r of rows) {
    majors.set(r.major_code, {
      code: r.major_code,
      name: r.major_name_zh,
      disciplineCode: r.discipline_code,
      disciplineName: r.discipline_name_zh,
      classCode: r.major_class_code,
      className: r.major_class_name_zh,
      special: r.is_special_T === 'Y',
      controlled: r.is_controlled_K === 'Y',
      degrees: r.degree_fields_zh.split('/').filter(Boolean),
      note: r.catalog_note_zh,
      edition: Number(r.catalog_edition),
    });
    const cls: MajorClass = {
      disciplineCode: r.discipline_code,
      disciplineName: r.discipline_name_zh,
      classCode: r.major_class_code,
      className: r.major_class_name_zh,
      majorCode: null,
    };
    byMajor.set(normaliseText(r.major_name_zh), { ...cls, majorCode: r.major_code });
    const classKey = normaliseText(cls.className);
    if (!byClass.has(classKey)) {
      byClass.set(classKey, cls);
      let node = tree.find((d) => d.code === cls.disciplineCode);
      if (!node) {
        node = { code: cls.disciplineCode, name: cls.disciplineName, classes: [] };
        tree.push(node);
      }
      node.classes.push({ code: cls.classCode, name: cls.className });
    }
  }
  // A stem two classes share would pick one at random: such a stem is dropped (none does in the 2025 catalogue).
  const stems = new Map<string, MajorClass | null>();
  const addStem = (stem: string, cls: MajorClass) => {
    if (stem.length < 2) return;
    const had = stems.get(stem);
    stems.set(stem, had === undefined || had?.classCode === cls.classCode ? cls : null);
  };
  for (const [name, cls] of byClass) {
    const stem = name.replace(/类$/, '');
    addStem(stem, cls);
    addStem(stem.replace(/学$/, ''), cls);
  }
  const byStem = new Map<string, MajorClass>();
  for (const [stem, cls] of stems) if (cls) byStem.set(stem, cls);
  const order = (a: { code: string }, b: { code: string }) => a.code.localeCompare(b.code);
  tree.sort(order);
  for (const d of tree) d.classes.sort(order);
  catalogue = { byMajor, byClass, byStem, tree, majors };
  return catalogue;
}

/** A bracket part as a category: a major, a 专业类, or a class stem (计算机, 电子信息, 数学方向 → 数学). */
function partClass(cat: Catalogue, part: string): MajorClass | null {
  const p = part.replace(/(等\d*个?专业|方向|专业)$/, '');
  return cat.byMajor.get(p) ?? cat.byClass.get(p) ?? cat.byStem.get(p) ?? null;
}

/**
 * The notes of a name that list majors — (含物理学、天文学), (数学类), (计算机) — as their classes. A note counts only
 * when every part of it is a catalogue name, so (建筑、规划、景观) or (计算机与电子类) say nothing; notes such as
 * 高校专项计划 or 双学士学位 are ignored. One class when all listing notes agree, else null.
 */
function bracketClass(cat: Catalogue, notes: readonly string[]): MajorClass | null {
  let found: MajorClass | null = null;
  for (const note of notes.flatMap((n) => n.split(/[,;]/))) {
    const parts = note
      .replace(/^(含|包含|包括)/, '')
      .split(/[、/]/)
      .filter(Boolean);
    if (parts.length === 0) continue;
    const classes = parts.map((p) => partClass(cat, p));
    if (classes.some((c) => c == null)) continue;
    for (const c of classes as MajorClass[]) {
      if (found && found.classCode !== c.classCode) return null;
      found = c;
    }
  }
  return found && { ...found, majorCode: null };
}

function classify(name: string): { cls: MajorClass; rule: MatchRule } | null {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const cat = load();
  const { base, notes } = splitName(name);
  let hit: { cls: MajorClass; rule: MatchRule } | null = null;
  const major = cat.byMajor.get(base);
  const cls = cat.byClass.get(base);
  if (major) hit = { cls: major, rule: 'major' };
  else if (cls) hit = { cls, rule: 'class' };
  else if (base.length > 2 && base.endsWith('类')) {
    // 汉语言文学类 → the class of 汉语言文学; 新闻传播类 → 新闻传播学类.
    const stem = base.slice(0, -1);
    const c = cat.byMajor.get(stem) ?? cat.byStem.get(stem);
    if (c) hit = { cls: { ...c, majorCode: null }, rule: 'classStem' };
  }
  if (!hit) {
    const b = bracketClass(cat, notes);
    if (b) hit = { cls: b, rule: 'bracket' };
  }
  if (!hit) {
    const alias = MAJOR_ALIASES.get(base);
    const c = alias ? cat.byMajor.get(alias) : undefined;
    if (c) hit = { cls: { ...c, majorCode: null }, rule: 'alias' };
  }
  cache.set(name, hit);
  return hit;
}

/**
 * The 门类 and 专业类 of a major name as printed in a 投档表 or a catalogue line, or null when the catalogue cannot
 * place it (a 试验班 whose notes name no class, a 职业本科 or 2026-new major, 本科预科班).
 */
export function classifyMajor(name: string): MajorClass | null {
  const hit = classify(name);
  return hit && { ...hit.cls };
}

/**
 * The catalogue facts behind a printed or catalogue name (专业详情, 专业库): the major's own row when the name is a
 * catalogue major or one of its aliases, else the 专业类 it was placed in with that class's majors; null when the
 * catalogue cannot place the name.
 */
export function majorFacts(name: string): MajorFacts | null {
  const hit = classify(name);
  if (!hit) return null;
  const cat = load();
  let major: CatalogueMajor | null = null;
  if (hit.rule === 'major' && hit.cls.majorCode) major = cat.majors.get(hit.cls.majorCode) ?? null;
  if (hit.rule === 'alias') {
    const target = cat.byMajor.get(MAJOR_ALIASES.get(splitName(name).base) ?? '');
    major = target?.majorCode ? (cat.majors.get(target.majorCode) ?? null) : null;
  }
  const classMajors = [...cat.majors.values()].filter((m) => m.classCode === hit.cls.classCode).map((m) => ({ code: m.code, name: m.name }));
  return {
    asked: name,
    rule: hit.rule,
    ruleText: MATCH_RULE_TEXT[hit.rule],
    major: major && { ...major, degrees: [...major.degrees] },
    disciplineCode: hit.cls.disciplineCode,
    disciplineName: hit.cls.disciplineName,
    classCode: hit.cls.classCode,
    className: hit.cls.className,
    classMajors,
    edition: [...cat.majors.values()][0]?.edition ?? 2025,
  };
}

/** The 845 majors of the catalogue in its order (the tool site's 专业库), each a copy. */
export function catalogueMajors(): CatalogueMajor[] {
  return [...load().majors.values()].map((m) => ({ ...m, degrees: [...m.degrees] }));
}

/**
 * The catalogue identity of a printed name for joining lines to a major: its major code when the name is the major
 * (or its alias), else null; and its class code. 专业详情 gathers a major's lines by these.
 */
export function majorKeyOf(name: string): { majorCode: string | null; classCode: string; rule: MatchRule } | null {
  const hit = classify(name);
  if (!hit) return null;
  let majorCode = hit.cls.majorCode;
  if (hit.rule === 'alias') majorCode = load().byMajor.get(MAJOR_ALIASES.get(splitName(name).base) ?? '')?.majorCode ?? null;
  return { majorCode, classCode: hit.cls.classCode, rule: hit.rule };
}

/** The 12 门类 with their 专业类, codes ascending (the catalogue's order), for a picker. */
export function majorClassTree(): DisciplineNode[] {
  return load().tree.map((d) => ({ ...d, classes: d.classes.map((c) => ({ ...c })) }));
}

/** How many of the given names (one per line) the catalogue places, by rule, and the names it cannot place. */
export interface ClassCoverage {
  total: number;
  matched: number;
  byRule: Record<MatchRule, number>;
  /** Base names (before the first bracket) that stayed unmatched, with their line counts, most frequent first. */
  unmatched: Array<[string, number]>;
}

export function classOfLines(names: Iterable<string>): ClassCoverage {
  const byRule: Record<MatchRule, number> = { major: 0, class: 0, classStem: 0, bracket: 0, alias: 0 };
  const missing = new Map<string, number>();
  let total = 0;
  let matched = 0;
  for (const name of names) {
    total++;
    const hit = classify(name);
    if (hit) {
      matched++;
      byRule[hit.rule]++;
    } else {
      const { base } = splitName(name);
      missing.set(base, (missing.get(base) ?? 0) + 1);
    }
  }
  const unmatched = [...missing].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return { total, matched, byRule, unmatched };
}
