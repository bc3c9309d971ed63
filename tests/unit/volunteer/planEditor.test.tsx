import type { DraftChoice, PlanSimulationView } from '@common/volunteer/planSimulation';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ChanceRow, PlanItem, PlanStatus } from '@/api/volunteer';
import { PlanEditor } from '@/modules/volunteer/plan/PlanEditor';
import type { PlanLimits } from '@/modules/volunteer/plan/planModel';
import { usePlanEditor } from '@/modules/volunteer/plan/usePlanEditor';
import { HttpResponse, item, mock, ok, renderInApp, row, student, useVolunteerServer } from './harness';

/** The plan editor against a mocked server: add, remove, reorder, limits, duplicates, warnings, save, stale save, read-only. */
const server = useVolunteerServer();

/**
 * The simulation route's answer for a list (issue 24): the choice at place n lands `shares[n]` of the years, 滑档 is
 * what is left; a choice landing nothing is idle.
 */
const SHADOWED = '排在前面的志愿几乎总能录取，投档很少排到这里';
function simulationOf(items: DraftChoice[], shares: number[], year = 2027): PlanSimulationView {
  const landing = items.map((_, n) => shares[n] ?? 0);
  const admitted = landing.reduce((a, b) => a + b, 0);
  const byTier = { 冲: 0, 稳: 0, 保: 0 };
  items.forEach((it, n) => {
    if (it.tier) byTier[it.tier] += landing[n];
  });
  return {
    year,
    draws: 10000,
    admitted,
    slide: 1 - admitted,
    byTier,
    choices: items.map((it, n) => ({ sort: it.sort, landing: landing[n], reach: 1, idle: landing[n] === 0 ? SHADOWED : null, simulated: true })),
    expectedPosition: 1,
    text: `按${year}年模拟 10,000 次平行投档`,
  };
}

/** Every test's editor simulates its list (the route is asked after each edit); a test may answer otherwise. */
beforeEach(() => {
  server.use(
    mock.post('*/appv2/api/Filling/simulatePlan', async ({ request }) => {
      const body = (await request.json()) as { items: DraftChoice[] };
      return ok(simulationOf(body.items, [0.5, 0.3, 0.15]));
    }),
  );
});

const SHANDONG: PlanLimits = { province: '山东', slotLimit: 96, groupMajorLimit: 0, zyType: 1 };
const rush = row(11, '北京大学', '法学', '冲');
const match = row(12, '山东大学', '医学', '稳');
const safe = row(13, '青岛大学', '化学', '保');
const extra = row(14, '济南大学', '物理', '保');

function Editor({ limits = SHANDONG, candidates = [] as ChanceRow[] }) {
  const editor = usePlanEditor(1, limits);
  const { load } = editor;
  useEffect(() => {
    load();
  }, [load]);
  return (
    <>
      <PlanEditor editor={editor} student={student} limits={limits} filters={{ studentId: 1 }} listHeight={800} onOpenChance={() => undefined} />
      {candidates.map((r) => (
        <button type="button" key={r.lineId} onClick={() => editor.add(r)}>
          {`候选 ${r.lineId}`}
        </button>
      ))}
    </>
  );
}

function plan(items: PlanItem[], status: PlanStatus = 'draft', version = 2) {
  server.use(
    mock.post('*/appv2/api/index/zyInfo', () =>
      ok({
        student,
        plan:
          items.length || status !== 'none'
            ? { planId: 1, status, statusName: '', version, itemCount: items.length, updateTime: 0, submitTime: null, reviewTime: null, reviewComment: null }
            : null,
        items,
        warnings: [],
        slotLimit: 96,
      }),
    ),
  );
}

const names = () => screen.queryAllByTestId('plan-row').map((li) => li.getAttribute('data-line-id'));

describe('plan editor', () => {
  it('adds options, refuses a duplicate and shows the gradient warnings as entries change', async () => {
    plan([], 'none', 0);
    renderInApp(<Editor candidates={[safe, rush, match]} />);
    await screen.findByText('志愿表还是空的：在左侧表格点「加入」，或使用「智能填报」');
    fireEvent.click(screen.getByText('候选 13'));
    fireEvent.click(screen.getByText('候选 11'));
    expect(names()).toEqual(['13', '11']);
    expect(screen.getByLabelText('志愿数').textContent).toBe('2/96');
    // 保 then 冲: inverted gradient.
    expect(await screen.findByText(/梯度倒挂：第2个志愿（冲）排在更稳妥的第1个志愿（保）之后/)).toBeTruthy();
    fireEvent.click(screen.getByText('候选 11'));
    expect(await screen.findByText('该志愿已在志愿表第 2 位：北京大学 法学')).toBeTruthy();
    expect(names()).toEqual(['13', '11']);
    // Moving 冲 up fixes the order; removing 保 leaves a plan without safety.
    fireEvent.click(screen.getByLabelText('上移 第2个志愿'));
    expect(names()).toEqual(['11', '13']);
    await waitFor(() => expect(screen.queryByText(/梯度倒挂/)).toBeNull());
    fireEvent.click(screen.getByLabelText('删除 第2个志愿'));
    expect(names()).toEqual(['11']);
    expect(screen.getByText('方案中没有保底志愿，存在滑档风险')).toBeTruthy();
    expect(screen.getByText(/冲刺志愿 1 个，占 100%/)).toBeTruthy();
  });

  it('refuses entries past the slot limit', async () => {
    plan([item(rush, 1), item(match, 2)]);
    renderInApp(<Editor limits={{ ...SHANDONG, slotLimit: 2 }} candidates={[safe]} />);
    await waitFor(() => expect(names()).toEqual(['11', '12']));
    fireEvent.click(screen.getByText('候选 13'));
    expect(await screen.findByText('志愿表已满：山东最多填报 2 个志愿，请先删除一些再添加')).toBeTruthy();
    expect(names()).toEqual(['11', '12']);
  });

  it('reports a duplicate in a loaded plan, and the per-group major limit with 服从调剂 in group provinces', async () => {
    plan([item(safe, 1), item({ ...safe, lineId: 99 }, 2)]);
    const { unmount } = renderInApp(<Editor />);
    expect(await screen.findByText('第1、第2个志愿重复：青岛大学 化学')).toBeTruthy();
    unmount();

    const groups: PlanLimits = { province: '广东', slotLimit: 45, groupMajorLimit: 2, zyType: 2 };
    const g = (id: number, major: string) => ({ ...row(id, '中山大学', major, '稳', 'A001'), groupCode: '201' });
    plan([], 'none', 0);
    renderInApp(<Editor limits={groups} candidates={[g(1, '法学'), g(2, '医学'), g(3, '化学')]} />);
    await screen.findByText(/志愿表还是空的/);
    fireEvent.click(screen.getByText('候选 1'));
    fireEvent.click(screen.getByText('候选 2'));
    fireEvent.click(screen.getByText('候选 3'));
    expect(await screen.findByText('中山大学 201组 已填 2 个专业，达到每组 2 个的上限')).toBeTruthy();
    // One 服从调剂 switch for the group, on by default.
    const switches = screen.getAllByRole('switch');
    expect(switches).toHaveLength(1);
    expect(switches[0].getAttribute('aria-checked')).toBe('true');
  });

  it('saves the ordered list with the version; a pure reorder goes through saveSort', async () => {
    plan([item(rush, 1), item(match, 2), item(safe, 3)], 'draft', 2);
    const bodies: Array<{ url: string; body: Record<string, unknown> }> = [];
    const answer = (items: PlanItem[], version: number, msg: string) =>
      HttpResponse.json({ code: 200, msg, data: { planId: 1, studentId: 1, status: 'draft', version, itemCount: items.length, items, warnings: [] } });
    server.use(
      mock.post('*/dev-api/api/Subscriber/save', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push({ url: 'save', body });
        const ids = (body.items as Array<{ lineId: number }>).map((i) => i.lineId);
        return answer(
          ids.map((id, n) => item([rush, match, safe, extra].find((r) => r.lineId === id) as ChanceRow, n + 1)),
          Number(body.version) + 1,
          '保存成功',
        );
      }),
      mock.post('*/appv2/api/index/saveSort', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push({ url: 'saveSort', body });
        const ids = body.lineIds as number[];
        return answer(
          ids.map((id, n) => item([rush, match, safe, extra].find((r) => r.lineId === id) as ChanceRow, n + 1)),
          Number(body.version) + 1,
          '排序已保存',
        );
      }),
    );
    renderInApp(<Editor candidates={[extra]} />);
    await waitFor(() => expect(names()).toEqual(['11', '12', '13']));
    const save = () => screen.getByRole('button', { name: /保\s*存/ });
    expect(save().hasAttribute('disabled')).toBe(true);

    fireEvent.click(screen.getByText('候选 14'));
    expect(screen.getByText('未保存')).toBeTruthy();
    fireEvent.click(save());
    expect(await screen.findByText('保存成功')).toBeTruthy();
    expect(bodies[0]).toEqual({ url: 'save', body: { studentId: 1, version: 2, items: [{ lineId: 11 }, { lineId: 12 }, { lineId: 13 }, { lineId: 14 }] } });
    expect(await screen.findByText('版本 3')).toBeTruthy();

    fireEvent.click(screen.getByLabelText('下移 第1个志愿'));
    fireEvent.click(save());
    expect(await screen.findByText('排序已保存')).toBeTruthy();
    expect(bodies[1]).toEqual({ url: 'saveSort', body: { studentId: 1, version: 3, lineIds: [12, 11, 13, 14] } });
    expect(names()).toEqual(['12', '11', '13', '14']);
  });

  it('a stale save shows the server message and keeps the local edits', async () => {
    plan([item(rush, 1)], 'draft', 2);
    server.use(
      mock.post('*/dev-api/api/Subscriber/save', () => HttpResponse.json({ code: 500, msg: '志愿方案已被他人修改，请刷新后再保存', currentVersion: 7 })),
    );
    renderInApp(<Editor candidates={[safe]} />);
    await waitFor(() => expect(names()).toEqual(['11']));
    fireEvent.click(screen.getByText('候选 13'));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    // The toast and the alert both carry the server's words; the alert says what to do.
    await waitFor(() => expect(screen.getAllByText('志愿方案已被他人修改，请刷新后再保存').length).toBeGreaterThan(0));
    expect(screen.getByText(/你的修改仍保留在下方/)).toBeTruthy();
    expect(names()).toEqual(['11', '13']);
    expect(screen.getByText('未保存')).toBeTruthy();
    expect(screen.getByRole('button', { name: /重新加载/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /覆盖保存/ })).toBeTruthy();
  });

  it("shows each entry's figures with their year and marks 失效 entries with the reason, so the expert replaces them", async () => {
    const year = 2026;
    const current = { ...item(rush, 1), year, minScore: 581, minRank: 29348, subjectReq: '物理', stale: false, staleReason: null };
    const reason = `该志愿不在${year}年招生目录中（已停招或更名），请替换`;
    const lapsed = { ...item(match, 2), year: year - 2, minScore: 590, minRank: 21077, stale: true, staleReason: reason };
    plan([current, lapsed]);
    renderInApp(<Editor />);
    await waitFor(() => expect(names()).toEqual(['11', '12']));
    const rows = screen.getAllByTestId('plan-row');
    for (const [n, it] of [current, lapsed].entries()) {
      expect(within(rows[n]).getByText(new RegExp(`${it.year} · ${it.minScore}分 · ${it.minRank.toLocaleString('en-US')}名`))).toBeTruthy();
    }
    expect(within(rows[0]).queryByText('失效')).toBeNull();
    expect(within(rows[1]).getByText('失效')).toBeTruthy();
    expect(within(rows[1]).getByText(reason)).toBeTruthy();
    expect(screen.getByText('1 个志愿已失效（第 2 位）')).toBeTruthy();
    // The probabilities are estimates for the exam after the catalogue year (not the 失效 entry's old year).
    expect(screen.getByText(`录取概率为${year + 1}年的估计`)).toBeTruthy();
    // Removing it clears the mark.
    fireEvent.click(screen.getByLabelText('删除 第2个志愿'));
    await waitFor(() => expect(screen.queryByText(/个志愿已失效/)).toBeNull());
  });

  it("keeps a refused save's message from the server on the editor, with the local edits", async () => {
    const refusal = '第2个志愿（山东大学 医学）不在2026年招生目录中，请替换后再保存';
    plan([item(rush, 1)], 'draft', 2);
    server.use(mock.post('*/dev-api/api/Subscriber/save', () => HttpResponse.json({ code: 500, msg: refusal })));
    renderInApp(<Editor candidates={[match]} />);
    await waitFor(() => expect(names()).toEqual(['11']));
    fireEvent.click(screen.getByText('候选 12'));
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    expect(await screen.findByText('志愿表未保存，你的修改仍保留在下方。请按提示调整后再保存。')).toBeTruthy();
    expect(screen.getAllByText(refusal).length).toBeGreaterThan(0);
    expect(names()).toEqual(['11', '12']);
    expect(screen.getByText('未保存')).toBeTruthy();
  });

  it('a submitted plan is read-only: no handles, no removal, 保存 disabled, 撤回 offered', async () => {
    plan([item(rush, 1), item(safe, 2)], 'submitted', 5);
    renderInApp(<Editor candidates={[match]} />);
    await waitFor(() => expect(names()).toEqual(['11', '13']));
    expect(screen.getByText('方案已提交审核，等待审批，当前只读。如需修改，请先「撤回」。')).toBeTruthy();
    expect(screen.queryAllByLabelText(/^拖动排序/)).toHaveLength(0);
    expect(screen.queryAllByLabelText(/^删除 第/)).toHaveLength(0);
    expect(screen.getByRole('button', { name: /保\s*存/ }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: /撤\s*回/ })).toBeTruthy();
    fireEvent.click(screen.getByText('候选 12'));
    expect(await screen.findByText('志愿方案已提交审核，不能修改，如需修改请先撤回')).toBeTruthy();
    expect(within(screen.getByLabelText('志愿表')).getAllByTestId('plan-row')).toHaveLength(2);
  });
  it('simulates the list as edited: P(滑档) for the answer’s year in the header, 落点 per row, idle rows greyed, asked again after a reorder', async () => {
    plan([item(rush, 1), item(match, 2), item(safe, 3)]);
    const asked: DraftChoice[][] = [];
    server.use(
      mock.post('*/appv2/api/Filling/simulatePlan', async ({ request }) => {
        const body = (await request.json()) as { studentId: number; items: DraftChoice[] };
        expect(body.studentId).toBe(1);
        asked.push(body.items);
        return ok(simulationOf(body.items, [0.7, 0.296, 0]));
      }),
    );
    renderInApp(<Editor />);
    await waitFor(() => expect(names()).toEqual(['11', '12', '13']));
    const summary = await screen.findByTestId('plan-simulation-summary');
    await waitFor(() => expect(within(summary).getByText('2027年模拟')).toBeTruthy());
    expect(within(summary).getByText('滑档 0.4%')).toBeTruthy();
    expect(summary.textContent).toContain('被录取 99.6%');
    expect(asked).toEqual([
      [
        { sort: 1, lineId: 11, tier: '冲' },
        { sort: 2, lineId: 12, tier: '稳' },
        { sort: 3, lineId: 13, tier: '保' },
      ],
    ]);
    const landingOf = (lineId: number) =>
      within(screen.getAllByTestId('plan-row').find((r) => r.getAttribute('data-line-id') === String(lineId)) as HTMLElement).getByTestId('plan-row-landing');
    expect(landingOf(11).textContent).toBe('落点 70.0%');
    expect(landingOf(12).textContent).toBe('落点 29.6%');
    // The last choice is never reached: greyed, with the reason on hover.
    expect(landingOf(13).getAttribute('title')).toBe(SHADOWED);
    expect(screen.getAllByTestId('plan-row')[2].getAttribute('data-idle')).toBe('true');

    // Two moves in a row ask once, for the final order; meanwhile the header says it is simulating.
    fireEvent.click(screen.getByLabelText('下移 第1个志愿'));
    fireEvent.click(screen.getByLabelText('下移 第2个志愿'));
    expect(names()).toEqual(['12', '13', '11']);
    expect(within(summary).getByText('模拟中…')).toBeTruthy();
    await waitFor(() => expect(landingOf(11).textContent).toBe('落点 0.0%'));
    expect(asked).toHaveLength(2);
    expect(asked[1].map((c) => c.lineId)).toEqual([12, 13, 11]);
    expect(landingOf(12).textContent).toBe('落点 70.0%');
    expect(within(summary).queryByText('模拟中…')).toBeNull();
  });

  it('says why the plan cannot be simulated, and offers 重试 when the call fails', async () => {
    plan([item(rush, 1)]);
    let fail = true;
    server.use(
      mock.post('*/appv2/api/Filling/simulatePlan', async ({ request }) => {
        const body = (await request.json()) as { items: DraftChoice[] };
        if (fail) return HttpResponse.json({ code: 500, msg: '请先填写该学生的高考分数' });
        return ok(simulationOf(body.items, [0.42]));
      }),
    );
    renderInApp(<Editor />);
    const summary = await screen.findByTestId('plan-simulation-summary');
    await waitFor(() => expect(summary.textContent).toContain('整体模拟失败：请先填写该学生的高考分数'));
    // A failed call shows no figure from an earlier list.
    expect(screen.queryByTestId('plan-row-landing')).toBeNull();
    fail = false;
    fireEvent.click(within(summary).getByText('重试'));
    await waitFor(() => expect(within(summary).getByText('滑档 58.0%')).toBeTruthy());
    expect(screen.getByTestId('plan-row-landing').textContent).toBe('落点 42.0%');
  });

  it('shows all 96 choices of a full plan, every one with its 落点', async () => {
    const many = Array.from({ length: 96 }, (_, n) => item(row(1000 + n, `院校${n + 1}`, `专业${n + 1}`, n < 30 ? '冲' : n < 70 ? '稳' : '保'), n + 1));
    plan(many);
    renderInApp(<Editor />);
    await waitFor(() => expect(screen.getAllByTestId('plan-row')).toHaveLength(96));
    await waitFor(() => expect(screen.getAllByText(/^落点 \d+\.\d%$/)).toHaveLength(96));
    expect(screen.getByLabelText('志愿数').textContent).toBe('96/96');
  });

  it('智能填报 on a plan of 2 choices appends only the 94 lines it lacks, without a refusal', async () => {
    plan([item(rush, 1), item(match, 2)]);
    // The proposal holds the plan's two lines among 96 (as the server answers an unlocked re-optimisation).
    const proposed = [rush, match, ...Array.from({ length: 94 }, (_, n) => row(2000 + n, `院校${n + 1}`, `专业${n + 1}`, '稳'))].map((r, n) => ({
      ...r,
      sort: n + 1,
    }));
    server.use(
      mock.get('*/appv2/api/Filling/majorClasses', () => ok([])),
      mock.post('*/appv2/api/Filling/schoolEnrollChance_auto', () =>
        ok({
          strategy: 'landing',
          items: proposed,
          requested: null,
          effectiveCounts: { 冲: 1, 稳: 95, 保: 0 },
          shortfalls: [],
          simulation: null,
          explanation: [],
          notes: [],
          warnings: [],
          slotLimit: 96,
          student: null,
        }),
      ),
    );
    renderInApp(<Editor />);
    await waitFor(() => expect(names()).toEqual(['11', '12']));
    fireEvent.click(screen.getByRole('button', { name: /智能填报/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('未锁定的志愿不保留：「替换志愿表」覆盖现有 2 个；「追加到志愿表」只补满剩余 94 个位置')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: /生成方案/ }));
    const append = await within(dialog).findByRole('button', { name: '追加到志愿表（94 个）' });
    fireEvent.click(append);
    const box = (await screen.findAllByText('智能填报结果'))[0].closest('.ant-modal-confirm') as HTMLElement;
    expect(within(box).getByText('已追加 94 个志愿，请检查顺序后点「保存」。')).toBeTruthy();
    expect(within(box).queryByText(/跳过/)).toBeNull();
    await waitFor(() => expect(screen.getAllByTestId('plan-row')).toHaveLength(96));
    expect(names().slice(0, 3)).toEqual(['11', '12', '2000']);
  });
});
