import type { Rule } from 'antd/es/form';

/** Subject ids of spec §3: physics 1 … politics 6. */
export const SUBJECTS = [
  { value: 1, label: '物理' },
  { value: 2, label: '化学' },
  { value: 3, label: '生物' },
  { value: 4, label: '历史' },
  { value: 5, label: '地理' },
  { value: 6, label: '政治' },
];

export const LEVELS = ['985', '211', '双一流', '本科', '专科'];

/** Validation of the student form, in Chinese, matching the server's limits (docs/volunteer-api.md). */
export const STUDENT_RULES: Record<string, Rule[]> = {
  name: [
    { required: true, whitespace: true, message: '请输入学生姓名' },
    { max: 20, message: '姓名不能超过 20 个字' },
  ],
  mobile: [{ pattern: /^1[3-9]\d{9}$/, message: '手机号格式不正确，请输入 11 位手机号' }],
  province: [{ required: true, message: '请选择考生所在省份' }],
  examYear: [{ type: 'number', min: 2000, max: 2100, message: '高考年份必须在 2000 到 2100 之间' }],
  score: [
    { required: true, message: '请输入高考分数' },
    { type: 'number', min: 0, max: 750, message: '分数必须在 0 到 750 之间' },
  ],
  rank: [{ type: 'integer', min: 1, message: '位次必须是正整数' }],
  subjects: [
    { required: true, type: 'array', message: '请选择选考科目' },
    {
      validator: async (_r, value: number[] | undefined) => {
        if (!value || value.length === 0) return;
        if (value.length !== 3) throw new Error(`选考科目须为三门，当前选了 ${value.length} 门`);
      },
    },
  ],
  tuitionCap: [{ type: 'number', min: 0, max: 200000, message: '学费上限必须在 0 到 200000 元之间' }],
  majors: [
    {
      validator: async (_r, value: string[] | undefined) => {
        if (!value) return;
        if (value.length > 10) throw new Error('意向专业最多填写 10 个');
        const long = value.find((m) => m.trim().length > 20);
        if (long) throw new Error(`专业名称不能超过 20 个字：${long}`);
      },
    },
  ],
  remark: [{ max: 200, message: '备注不能超过 200 个字' }],
};

/** 3+1+2 provinces (湖北, 广东): the first choice decides the track (物理类 / 历史类). */
export const TRACK_SUBJECTS = [
  { value: 1, label: '物理（物理类）' },
  { value: 4, label: '历史（历史类）' },
];

/** 3+1+2: two of these four after the first choice. */
export const RESELECT_SUBJECTS = SUBJECTS.filter((s) => s.value !== 1 && s.value !== 4);

/** A student's subjects as 首选 + 再选 (the form of a 3+1+2 province). */
export function splitSubjects(subjects: readonly number[]): { track?: number; reselect: number[] } {
  const track = subjects.find((n) => n === 1 || n === 4);
  return { track, reselect: subjects.filter((n) => n !== 1 && n !== 4) };
}

export const trackRules: Rule[] = [{ required: true, message: '请选择首选科目：物理或历史' }];

export const reselectRules: Rule[] = [
  { required: true, type: 'array', message: '请选择两门再选科目' },
  {
    validator: async (_r, value: number[] | undefined) => {
      if (!value || value.length === 0) return;
      if (value.length !== 2) throw new Error(`再选科目须为两门（化学、生物、地理、政治中选两门），当前选了 ${value.length} 门`);
    },
  },
];

/**
 * The rank field: required where the province has no 一分一段 table (the score cannot be converted). `missingTable`
 * names it as the server does, e.g. 广东暂无物理类一分一段表.
 */
export function rankRules(missingTable: string | null): Rule[] {
  if (!missingTable) return STUDENT_RULES.rank;
  return [{ required: true, message: `${missingTable}，无法由分数换算位次，请填写考生的全省位次` }, ...STUDENT_RULES.rank];
}
