/**
 * What the 院校百科 shows of one school from the reference data (server/volunteer/reference.ts): the answer's
 * `reference` part of /appv2/api/index/schoolHome and of the tool cabinet's school view. Every figure carries its year.
 */
/** 软科中国大学排名 (主榜) edition in the data. */
export const BCUR_YEAR = 2026;
/** 第二轮“双一流”建设学科名单, announced 2022-02. */
export const DOUBLE_FIRST_CLASS_YEAR = 2022;

export interface SchoolReferenceView {
  /** 软科中国大学排名 2026 主榜, null when the school is not on it (finance, medicine, arts … are ranked elsewhere). */
  bcur: {
    year: number;
    /** As published: '2', or '500+'. */
    rank: string;
    rankNumeric: number | null;
    score: number | null;
    category: string;
    province: string;
    tags: string[];
  } | null;
  /** 第二轮“双一流”建设学科 (2022), null when the school is not a 双一流 school. */
  doubleFirstClass: {
    year: number;
    round: number;
    disciplines: string[];
    /** 北京大学 and 清华大学 determine their own disciplines; the list does not name them. */
    selfDetermined: boolean;
  } | null;
  /** 第四轮学科评估 (2017): the published grades (top 70 %), best first; an empty list when none was published. */
  evaluation: {
    year: number;
    round: string;
    /** A remark such as a joint entry (中国石油大学), or null. */
    note: string | null;
    list: Array<{ disciplineCode: string; disciplineName: string; grade: string; meaning: string }>;
  };
  /** The university whose data this is when the school is one of its campuses or parts, else null. */
  campusOf: string | null;
}
