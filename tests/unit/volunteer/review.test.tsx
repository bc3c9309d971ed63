import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ReviewDialog } from '@/modules/approval/examine/ReviewDialog';
import { explain } from '@/modules/volunteer/filling/explanation';
import { HttpResponse, mock, renderInApp, row, useVolunteerServer } from './harness';

/** 驳回 needs a comment; 通过 sends the version it saw; the 录取率 dialog reads the engine's explanation. */
const server = useVolunteerServer();
const target = { studentId: 1, studentName: '张三', version: 4, itemCount: 10 };

describe('review dialog', () => {
  const config = (rejectNeedsComment: boolean) =>
    mock.post('*/dev-api/api/Examine/config', () => HttpResponse.json({ code: 200, msg: '操作成功', data: { submitNeedsReview: true, rejectNeedsComment } }));

  it('refuses a reject without a comment, then sends it with the version', async () => {
    const bodies: unknown[] = [];
    server.use(
      config(true),
      mock.post('*/dev-api/api/Examine/reject', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ code: 200, msg: '已驳回', data: { planId: 1, status: 'rejected', version: 5 } });
      }),
    );
    const done = vi.fn();
    renderInApp(<ReviewDialog target={target} mode="reject" onClose={() => undefined} onDone={done} />);
    fireEvent.click(screen.getByRole('button', { name: /驳\s*回/ }));
    expect(await screen.findByText('请填写驳回意见，告诉专家需要怎样修改')).toBeTruthy();
    expect(bodies).toHaveLength(0);
    fireEvent.change(screen.getByRole('textbox'), { target: { value: '保底不足，请补充' } });
    fireEvent.click(screen.getByRole('button', { name: /驳\s*回/ }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(bodies).toEqual([{ studentId: 1, version: 4, comment: '保底不足，请补充' }]);
  });

  it('rejects without a comment when 审核配置 does not ask for one', async () => {
    const bodies: unknown[] = [];
    server.use(
      config(false),
      mock.post('*/dev-api/api/Examine/reject', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ code: 200, msg: '已驳回', data: { planId: 1, status: 'rejected', version: 5 } });
      }),
    );
    const done = vi.fn();
    renderInApp(<ReviewDialog target={target} mode="reject" onClose={() => undefined} onDone={done} />);
    expect(await screen.findByText('驳回意见（选填）')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /驳\s*回/ }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(bodies).toEqual([{ studentId: 1, version: 4, comment: '' }]);
  });

  it('approves without a comment', async () => {
    const bodies: unknown[] = [];
    server.use(
      mock.post('*/dev-api/api/Examine/approve', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ code: 200, msg: '审批通过', data: { planId: 1, status: 'approved', version: 5 } });
      }),
    );
    const done = vi.fn();
    renderInApp(<ReviewDialog target={target} mode="approve" onClose={() => undefined} onDone={done} />);
    fireEvent.click(screen.getByRole('button', { name: /通\s*过/ }));
    await waitFor(() => expect(done).toHaveBeenCalled());
    expect(bodies).toEqual([{ studentId: 1, version: 4 }]);
  });
});

describe('acceptance-rate explanation', () => {
  it('reads method, years with weights, estimate, σ and the student rank from the engine line', () => {
    const r = { ...row(1, '北京大学', '法学', '稳'), method: 'rank' as const, estimatedRank: 24830, years: [{ year: 2025, minScore: 600, minRank: 24830 }] };
    r.explanation = '按位次法：2025年最低位次 24830（1年数据），估计录取位次 24830，σ=1242，你的位次 25061，录取概率 42.62%，稳';
    expect(explain(r)).toMatchObject({
      method: 'rank',
      methodName: '位次法',
      years: [{ year: 2025, weight: 1, minScore: 600, minRank: 24830 }],
      estimate: 24830,
      sigma: 1242,
      student: 25061,
    });
    const s = explain({ explanation: '按线差法：2024年线差 +120（560−440）（1年数据），估计线差 +119，σ=5.0，你的线差 +124，录取概率 86.43%，保', years: [] });
    expect(s).toMatchObject({ method: 'score-diff', methodName: '线差法', estimate: 119, sigma: 5, student: 124 });
  });
});
