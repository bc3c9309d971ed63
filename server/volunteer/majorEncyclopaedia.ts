import { EVALUATION_YEAR } from '../../common/volunteer/disciplineGrades.js';
import type { MajorEvaluation, MajorFacts } from '../../common/volunteer/majorEncyclopaedia.js';
import { fail } from '../http/envelope.js';
import { type Catalogue, requireCatalogue } from './catalogue.js';
import type { Db } from './common.js';
import { catalogueMajors, majorClassTree, majorFacts, majorKeyOf } from './majorClass.js';
import { disciplineOfMajor } from './majorDiscipline.js';
import { disciplineGrade } from './reference.js';

/**
 * The major encyclopaedia (issue 27, item 2): which admission lines of a province teach a catalogue major or 专业类,
 * and each line's school grade in the 一级学科 that teaches it. 专业详情 (filling.ts majorDetail) and the tool site's
 * 专业库 both read it.
 */

/** How a line reaches the major: printed as the major itself (or its alias), or as its 专业类 (按类招生, split later). */
export type LineVia = 'major' | 'class';

export interface MajorLine {
  index: number;
  via: LineVia;
}

/**
 * The lines of the catalogue that teach what facts describe, in the catalogue's rank order (hardest first). For a
 * catalogue major: the lines printed as that major (any notes, or its alias) and the 专业类 lines of its class
 * (计算机类 lines lead to 计算机科学与技术 after the split). For a 专业类: every line placed in that class. Lines of
 * other majors of the class are not the major and are left out.
 */
export function majorLines(cat: Catalogue, facts: MajorFacts, schoolCode?: string): MajorLine[] {
  const out: MajorLine[] = [];
  for (const i of cat.rankOrder) {
    const e = cat.entries[i];
    if (schoolCode && e.school.schoolCode !== schoolCode) continue;
    const key = e.majorName ? majorKeyOf(e.majorName) : null;
    if (!key || key.classCode !== facts.classCode) continue;
    if (facts.major) {
      if (key.majorCode === facts.major.code) out.push({ index: i, via: 'major' });
      else if (key.majorCode == null) out.push({ index: i, via: 'class' });
    } else out.push({ index: i, via: key.majorCode ? 'major' : 'class' });
  }
  return out;
}

/** The school's 第四轮学科评估 grade (2017) in the discipline of the major; null when no discipline speaks for it. */
export function majorEvaluation(schoolName: string, facts: MajorFacts): MajorEvaluation | null {
  const discipline = disciplineOfMajor(facts.classCode, facts.major?.code ?? null);
  if (!discipline) return null;
  return {
    disciplineCode: discipline.code,
    disciplineName: discipline.name,
    grade: disciplineGrade(schoolName, discipline.code),
    year: EVALUATION_YEAR,
  };
}

/** One sentence of the catalogue facts, for the 专业介绍 module and the tool site. */
export function factsText(facts: MajorFacts): string {
  const m = facts.major;
  if (m) {
    const flags = [m.special ? '特设专业' : '', m.controlled ? '国家控制布点专业' : ''].filter(Boolean).join('、');
    return `「${m.name}」是《普通高等学校本科专业目录（${m.edition}年）》中的专业，代码 ${m.code}，属${m.disciplineName}门类、${m.className}，授${m.degrees.join('或')}学士学位${flags ? `，为${flags}` : ''}。`;
  }
  return `「${facts.asked}」按《普通高等学校本科专业目录（${facts.edition}年）》归入${facts.disciplineName}门类的${facts.className}（代码 ${facts.classCode}），该类共有 ${facts.classMajors.length} 个专业。`;
}

export interface CatalogueFilter {
  /** 门类 code (2 digits). */
  discipline?: string;
  /** 专业类 code (4 digits). */
  cls?: string;
  /** Part of a major's name or its code. */
  keyword?: string;
}

/**
 * The tool site's 专业库: the catalogue's 门类 → 专业类 tree with the number of majors in each class, and the majors that
 * pass the filter, in catalogue order (845 rows at most: no paging needed by the caller, but the site pages them).
 */
export function majorCatalogue(filter: CatalogueFilter) {
  const all = catalogueMajors();
  const count = new Map<string, number>();
  for (const m of all) count.set(m.classCode, (count.get(m.classCode) ?? 0) + 1);
  const tree = majorClassTree().map((d) => ({ ...d, classes: d.classes.map((c) => ({ ...c, majorCount: count.get(c.code) ?? 0 })) }));
  const keyword = filter.keyword?.trim() ?? '';
  const rows = all.filter(
    (m) =>
      (!filter.discipline || m.disciplineCode === filter.discipline) &&
      (!filter.cls || m.classCode === filter.cls) &&
      (!keyword || m.name.includes(keyword) || m.code.startsWith(keyword.toUpperCase())),
  );
  return { edition: all[0]?.edition ?? 2025, tree, rows };
}

/**
 * The encyclopaedia view of one major for the tool site: its facts and the province's lines that teach it (newest
 * year, hardest first) with each school's grade. Unknown to the catalogue: a clear message, nothing else.
 */
export async function majorEncyclopaedia(db: Db, province: string, name: string) {
  const facts = majorFacts(name);
  if (!facts) throw fail(`「${name}」不在2025年本科专业目录中，请从专业库中选择专业`);
  const cat = await requireCatalogue(db, province);
  const schools = majorLines(cat, facts).map(({ index, via }) => {
    const e = cat.entries[index];
    const newest = e.years[0];
    return {
      schoolCode: e.school.schoolCode,
      schoolName: e.school.name,
      tags: e.school.tags,
      majorName: e.majorName,
      via,
      year: newest.year,
      minScore: newest.minScore,
      minRank: newest.minRank,
      evaluation: majorEvaluation(e.school.name, facts),
    };
  });
  return {
    province,
    year: cat.year,
    facts,
    text: factsText(facts),
    discipline: disciplineOfMajor(facts.classCode, facts.major?.code ?? null),
    evaluationYear: EVALUATION_YEAR,
    schoolCount: new Set(schools.map((s) => s.schoolCode)).size,
    schools,
  };
}
