import { WORK_ORDER_FORMS, workOrderHint } from '@common/service/workOrders';
import { describe, expect, it } from 'vitest';

/** 提交工单: each form's hint says in one sentence what headquarters' handling does. */
describe('工单表单提示', () => {
  it('意见反馈 reads as a sentence (it once said 总部处理后将总部阅读并回复)', () => {
    const feedback = WORK_ORDER_FORMS.find((f) => f.key === 'feedback');
    expect(feedback && workOrderHint(feedback)).toBe('意见反馈：总部处理后将阅读并回复，不改动数据。');
  });

  it('no hint names 总部 twice', () => {
    for (const f of WORK_ORDER_FORMS) expect(workOrderHint(f).match(/总部/g)?.length, f.name).toBe(1);
  });
});
