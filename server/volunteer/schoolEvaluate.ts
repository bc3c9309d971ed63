import { fail } from '../http/envelope.js';
import { requireCatalogue } from './catalogue.js';
import type { Db } from './common.js';
import { referenceView } from './reference.js';

/**
 * /appv2/api/index/schoolSubjectEvaluate (spec §7.2): one school's 第四轮学科评估 (2017) grades by 一级学科, each with
 * the grade's meaning, best grade first. The school is named by its 院校代码 in the province's catalogue (like
 * schoolHome); a school with no published grade answers an empty list and says so, it is not an error.
 */
export async function schoolSubjectEvaluate(db: Db, input: { schoolCode?: unknown; province?: unknown }) {
  const code = typeof input.schoolCode === 'string' ? input.schoolCode.trim() : '';
  if (!code) throw fail('请选择院校');
  const province = typeof input.province === 'string' && input.province.trim() ? input.province.trim() : '山东';
  const cat = await requireCatalogue(db, province);
  const school = cat.schools.get(code);
  if (!school) throw fail(`院校不存在：${code}`);
  const { evaluation, campusOf } = referenceView(school.name);
  return {
    schoolCode: school.schoolCode,
    schoolName: school.name,
    ...evaluation,
    campusOf,
    msg: evaluation.list.length ? '查询成功' : `${evaluation.round}（${evaluation.year}年）未公布该校的学科评估结果`,
  };
}
