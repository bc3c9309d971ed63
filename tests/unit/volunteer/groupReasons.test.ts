import { describe, expect, it } from 'vitest';
import { groupReasons } from '@/modules/volunteer/plan/groupReasons';

describe('智能填报结果: skipped choices grouped by refusal', () => {
  it('names each refusal once with its count, in the order first seen', () => {
    const full = '志愿表已满（最多 45 个院校专业组）';
    const dup = '该院校专业组已在志愿表中';
    expect(groupReasons([full, dup, full, full, '不符合选科要求'])).toEqual([`${full}（共 3 个）`, dup, '不符合选科要求']);
  });

  it('leaves a single refusal without a count and an empty list empty', () => {
    expect(groupReasons(['不符合选科要求'])).toEqual(['不符合选科要求']);
    expect(groupReasons([])).toEqual([]);
  });
});
