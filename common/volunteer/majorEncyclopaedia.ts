/**
 * The major encyclopaedia's wire types (issue 27, item 2): the facts of the 普通高等学校本科专业目录（2025年） for one
 * major or 专业类, how a printed 投档表 name was placed in it, and a school's 第四轮学科评估 grade in the discipline
 * that teaches it. Built by server/volunteer/majorClass.ts + filling.ts (majorDetail) and the tool site's 专业库;
 * shown by the console's 专业详情.
 */

/** Which catalogue rule placed a printed name: the catalogue major itself, a 专业类 (also its stem), a note, an alias. */
export type MajorMatchRule = 'major' | 'class' | 'classStem' | 'bracket' | 'alias';

export const MATCH_RULE_TEXT: Readonly<Record<MajorMatchRule, string>> = {
  major: '与目录中的专业同名',
  class: '与目录中的专业类同名',
  classStem: '按专业类名称匹配',
  bracket: '按括号内注明的专业（类）匹配',
  alias: '职业本科写法，按目录中的同名专业归类',
};

/** One major of the catalogue, as printed there. */
export interface CatalogueMajor {
  /** With the T (特设) / K (国家控制布点) suffix, e.g. 080717T. */
  code: string;
  name: string;
  disciplineCode: string;
  /** 门类. */
  disciplineName: string;
  classCode: string;
  /** 专业类. */
  className: string;
  special: boolean;
  controlled: boolean;
  /** 学位授予门类: one, or several when the catalogue's note allows (工学/理学). */
  degrees: string[];
  /** The catalogue's own 注, '' when none. */
  note: string;
  /** Catalogue edition year (2025). */
  edition: number;
}

/** The catalogue facts behind a printed name: a major's own, or a 专业类 with its majors. */
export interface MajorFacts {
  /** The printed name asked about. */
  asked: string;
  rule: MajorMatchRule;
  ruleText: string;
  /** Set when the name is (or is an alias of) a catalogue major. */
  major: CatalogueMajor | null;
  disciplineCode: string;
  disciplineName: string;
  classCode: string;
  className: string;
  /** The majors of the class (for a class-level name, the majors it may lead to). */
  classMajors: Array<{ code: string; name: string }>;
  edition: number;
}

/** A school's grade in the 一级学科 that teaches the major; null grade when the school was not among the published. */
export interface MajorEvaluation {
  disciplineCode: string;
  disciplineName: string;
  grade: string | null;
  /** 2017 (第四轮学科评估). */
  year: number;
}

export const SPECIAL_MEANING = '特设专业：满足经济社会发展特殊需求所设置的专业，代码后缀 T';
export const CONTROLLED_MEANING = '国家控制布点专业：涉及国家安全、特殊行业等，设置需经教育部审批，代码后缀 K';
