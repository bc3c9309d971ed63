import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PlanViewDrawer } from '@/modules/volunteer/approval/examine/PlanViewDrawer';
import { ReviewDialog } from '@/modules/volunteer/approval/examine/ReviewDialog';
import { explain } from '@/modules/volunteer/filling/explanation';
import { ReportDialog } from '@/modules/volunteer/plan/ReportDialog';
import { HttpResponse, item, mock, ok, renderInApp, row, student, useVolunteerServer } from './harness';

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
    const r = {
      ...row(1, '北京大学', '法学', '稳'),
      method: 'rank' as const,
      estimatedRank: 24830,
      years: [{ year: 2025, minScore: 600, minRank: 24830, planCount: null, majorName: null }],
    };
    r.explanation = '按位次法：2025年最低位次 24830（1年数据），估计录取位次 24830，σ=1242，你的位次 25061，录取概率 42.62%，稳';
    expect(explain(r)).toMatchObject({
      method: 'rank',
      methodName: '位次法',
      years: [{ year: 2025, weight: 1, minScore: 600, minRank: 24830 }],
      estimate: 24830,
      sigma: 1242,
      student: 25061,
    });
    const s = explain({
      explanation: '按线差法：2024年线差 +120（560−440）（1年数据），估计线差 +119，σ=5.0，你的线差 +124，录取概率 86.43%，保',
      years: [],
      method: null,
      estimatedRank: null,
    });
    expect(s).toMatchObject({ method: 'score-diff', methodName: '线差法', estimate: 119, sigma: 5, student: 124 });
  });
});

describe('plan shown to the reviewer', () => {
  const year = 2026;
  const figures = (y: { year: number; minScore: number; minRank: number }) => `${y.year} · ${y.minScore}分 · ${y.minRank.toLocaleString('en-US')}名`;
  const current = { ...item(row(1, '济南大学', '计算机科学与技术', '稳'), 1), year, minScore: 581, minRank: 29348, majorCode: '0A', stale: false };
  const reason = `该志愿不在${year}年招生目录中（已停招或更名），请替换`;
  const lapsed = { ...item(row(2, '东北林业大学', '林学', '保'), 2), year: year - 5, minScore: 540, minRank: 80123, stale: true, staleReason: reason };
  const exam = { ...student, examYear: year + 1 };

  it('lists each choice with its figures beside their year and marks a 失效 choice', async () => {
    server.use(
      mock.post('*/appv2/api/index/zyInfo', () =>
        ok({
          student: exam,
          plan: {
            planId: 1,
            status: 'submitted',
            statusName: '待审核',
            version: 3,
            itemCount: 2,
            updateTime: 0,
            submitTime: 0,
            reviewTime: null,
            reviewComment: null,
          },
          items: [current, lapsed],
          warnings: [],
          slotLimit: 96,
        }),
      ),
    );
    renderInApp(<PlanViewDrawer studentId={1} onClose={() => undefined} />);
    expect(await screen.findByText(figures(current))).toBeTruthy();
    expect(screen.getByText(figures(lapsed))).toBeTruthy();
    expect(screen.getByText(`${exam.examYear}年`)).toBeTruthy();
    const lapsedRow = screen.getByText(lapsed.schoolName).closest('.ant-table-row') as HTMLElement;
    expect(within(lapsedRow).getByText('失效')).toBeTruthy();
    expect(within(screen.getByText(current.schoolName).closest('.ant-table-row') as HTMLElement).queryByText('失效')).toBeNull();
    expect(screen.getByText('1 个志愿已失效')).toBeTruthy();
  });

  it('the report names the exam year and shows each choice with the figures the server wrote', async () => {
    const figureText = figures(current);
    const estimateText = `${year + 1} 录取概率 60.00%；${year + 1} 估计位次 30,120`;
    server.use(
      mock.post('*/dev-api/api/Subscriber/report', () =>
        ok({
          student: exam,
          plan: {
            planId: 1,
            status: 'draft',
            statusName: '草稿',
            version: 3,
            itemCount: 2,
            updateTime: 0,
            submitTime: null,
            reviewTime: null,
            reviewComment: null,
          },
          year,
          targetYear: year + 1,
          rankYear: year,
          tierDistribution: { 冲: 0, 稳: 1, 保: 1, none: 0 },
          tierShare: {},
          probability: { min: 0.6, max: 0.95, mean: 0.775 },
          changedSinceSave: [],
          warnings: [],
          risks: [],
          summary: '',
          items: [
            { ...current, figureText, estimateText },
            { ...lapsed, figureText: figures(lapsed), estimateText: `${year + 1} 失效，无法估计` },
          ],
        }),
      ),
    );
    renderInApp(<ReportDialog open studentId={1} studentName={exam.name} dirty={false} onClose={() => undefined} />);
    expect(await screen.findByText(`${year + 1}年（按${year}年招生目录）`)).toBeTruthy();
    expect(screen.getByText(figureText)).toBeTruthy();
    expect(screen.getByText(estimateText)).toBeTruthy();
    const lapsedRow = screen.getByText(figures(lapsed)).closest('.ant-table-row') as HTMLElement;
    expect(within(lapsedRow).getByText('失效')).toBeTruthy();
  });

  it('the report shows the whole-plan simulation: P(录取), P(滑档), where the student lands, idle choices greyed', async () => {
    const simulation = {
      year: year + 1,
      draws: 10000,
      admitted: 0.9731,
      slide: 0.0269,
      byTier: { 冲: 0.4, 稳: 0.5731, 保: 0 },
      choices: [
        { sort: current.sort, landing: 0.9731, reach: 1, idle: null, simulated: true },
        { sort: lapsed.sort, landing: 0, reach: 0.0269, idle: '投档排到这里时也几乎不会被录取', simulated: true },
      ],
      expectedPosition: 1,
      text: `按${year + 1}年模拟 10,000 次平行投档：被录取的概率 97.3%，滑档 2.7%`,
    };
    server.use(
      mock.post('*/dev-api/api/Subscriber/report', () =>
        ok({
          student: exam,
          plan: {
            planId: 1,
            status: 'draft',
            statusName: '草稿',
            version: 3,
            itemCount: 2,
            updateTime: 0,
            submitTime: null,
            reviewTime: null,
            reviewComment: null,
          },
          year,
          targetYear: year + 1,
          rankYear: year,
          tierDistribution: { 冲: 1, 稳: 1, 保: 0, none: 0 },
          tierShare: {},
          probability: { min: 0.3, max: 0.6, mean: 0.45 },
          changedSinceSave: [],
          warnings: [],
          risks: [],
          summary: '',
          simulation,
          items: [
            { ...current, landing: 0.9731, idleReason: null },
            { ...lapsed, landing: 0, idleReason: simulation.choices[1].idle },
          ],
        }),
      ),
    );
    renderInApp(<ReportDialog open studentId={1} studentName={exam.name} dirty={false} onClose={() => undefined} />);
    const block = await screen.findByTestId('plan-simulation');
    expect(within(block).getByText(`${year + 1}年整体模拟（10,000 次平行投档）`)).toBeTruthy();
    // The figures of the statistics (the landing chart below repeats them on its bars).
    const statistic = (title: string) =>
      [...block.querySelectorAll('.ant-statistic')].find((el) => el.querySelector('.ant-statistic-title')?.textContent === title)?.textContent;
    expect(statistic('被录取')).toBe('被录取97.3%');
    expect(statistic('滑档')).toBe('滑档2.7%');
    expect(within(block).getByText(new RegExp(simulation.text))).toBeTruthy();
    // No risk listed: the simulation's figures stand in for the old "未发现明显风险".
    expect(screen.getByText('未发现其他风险')).toBeTruthy();
    const idle = screen.getByTitle(simulation.choices[1].idle as string);
    expect(idle.textContent).toBe('0.0%');
    expect((idle.closest('.ant-table-row') as HTMLElement).textContent).toContain(lapsed.schoolName);
  });

  it('the report charts where the student lands, names P(滑档) with its year, lists idle choices with the reason and shows cautions', async () => {
    const shadowed = '排在前面的志愿几乎总能录取，投档很少排到这里';
    const volatile = `${year}年最低位次 4,693，${year - 1}年 12,765：位次波动大，录取概率仅供参考`;
    const simulation = {
      year: year + 1,
      draws: 10000,
      admitted: 0.996,
      slide: 0.004,
      byTier: { 冲: 0.6, 稳: 0.396, 保: 0 },
      choices: [
        { sort: 1, landing: 0.6, reach: 1, idle: null, simulated: true },
        { sort: 2, landing: 0.396, reach: 0.4, idle: null, simulated: true },
        { sort: 3, landing: 0, reach: 0.004, idle: shadowed, simulated: true },
        { sort: 4, landing: 0, reach: 0.004, idle: shadowed, simulated: true },
      ],
      expectedPosition: 1.4,
      text: `按${year + 1}年模拟 10,000 次平行投档：被录取的概率 99.6%，滑档 0.4%`,
    };
    const choice = (lineId: number, school: string, tier: '冲' | '稳' | '保', sort: number, landing: number, idleReason: string | null) => ({
      ...item(row(lineId, school, '计算机科学与技术', tier), sort),
      year,
      stale: false,
      landing,
      idleReason,
      cautions: lineId === 2 ? [{ kind: 'volatile', text: volatile }] : [],
    });
    server.use(
      mock.post('*/dev-api/api/Subscriber/report', () =>
        ok({
          student: exam,
          plan: {
            planId: 1,
            status: 'draft',
            statusName: '草稿',
            version: 3,
            itemCount: 4,
            updateTime: 0,
            submitTime: null,
            reviewTime: null,
            reviewComment: null,
          },
          year,
          targetYear: year + 1,
          rankYear: year,
          tierDistribution: { 冲: 1, 稳: 1, 保: 2, none: 0 },
          tierShare: {},
          probability: { min: 0.3, max: 0.99, mean: 0.7 },
          changedSinceSave: [],
          warnings: [],
          risks: [],
          summary: '',
          simulation,
          items: [
            choice(1, '山东大学', '冲', 1, 0.6, null),
            choice(2, '青岛大学', '稳', 2, 0.396, null),
            choice(3, '济南大学', '保', 3, 0, shadowed),
            choice(4, '烟台大学', '保', 4, 0, shadowed),
          ],
        }),
      ),
    );
    renderInApp(<ReportDialog open studentId={1} studentName={exam.name} dirty={false} onClose={() => undefined} />);
    const chart = await screen.findByTestId('landing-chart');
    expect(screen.getByText(`${year + 1}年模拟落点分布（录取落在各志愿的概率）`)).toBeTruthy();
    // The chart says what it shows, 滑档 with the exam year, for a reader who cannot see it.
    expect(within(chart).getByRole('img').getAttribute('aria-label')).toBe(
      `${year + 1}年模拟的落点分布：被录取 99.6%，滑档 0.4%；最常落在第1个志愿 山东大学 计算机科学与技术（60.0%）`,
    );
    // The idle choices, together, with why.
    expect(within(chart).getByText(`2 个志愿（第 3–4 个）：${shadowed}`)).toBeTruthy();
    // A caution is a small tag; its sentence shows on hover.
    const tag = screen.getByText('位次波动大');
    expect((tag.closest('.ant-table-row') as HTMLElement).textContent).toContain('青岛大学');
    expect(screen.getAllByTestId('caution-tag')).toHaveLength(1);
    fireEvent.mouseEnter(tag);
    expect(await screen.findByText(volatile)).toBeTruthy();
  });
});
