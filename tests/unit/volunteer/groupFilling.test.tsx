import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { GroupOptionRow, GroupOptions, ProvinceRules, StudentInfo } from '@/api/volunteer';
import { GroupFillingBoard } from '@/modules/volunteer/filling/groups/GroupFillingBoard';
import { HttpResponse, mock, ok, renderInApp, student, useVolunteerServer } from './harness';

/** The 院校专业组 filling board against a mocked server: the group list, picking majors, saving, the server's refusals. */
const server = useVolunteerServer();

const hubeiStudent: StudentInfo = { ...student, province: '湖北', score: 600, rank: 14274, subjects: [1, 2, 3], subjectNames: '物理/化学/生物' };
const rules: ProvinceRules = {
  province: '湖北',
  mode: '3+1+2',
  subjectType: 3,
  zyType: 2,
  zyTypeName: '院校专业组',
  slotLimit: 45,
  groupMajorLimit: 6,
  cohortSize: 249802,
  years: [2025],
  batches: ['本科批'],
  tracks: ['物理类'],
  batchLines: [],
  subjects: [],
  notes: [],
};

const group = (lineId: number, schoolName: string, groupCode: string): GroupOptionRow => ({
  lineId,
  year: 2025,
  track: '物理类',
  batch: '本科普通批平行志愿',
  schoolCode: `S${lineId}`,
  schoolName,
  province: '湖北',
  city: '武汉',
  tags: ['211'],
  groupCode,
  subjectReq: '化学',
  planCount: null,
  minScore: 598,
  minRank: 15000,
  probability: 0.6,
  probabilityText: '60.00%',
  tier: '稳',
  sigma: 0.2,
});

const answer = (over: Partial<GroupOptions>): GroupOptions => ({
  province: '湖北',
  year: 2025,
  track: '物理类',
  reselect: ['化学', '生物'],
  batchLine: 426,
  belowBatchLine: false,
  message: null,
  spreadSource: 'shandong-one-year',
  spreadNote: '仅有 2025 年一年数据：按位次段借用山东相邻年份位次波动估计，仅供参考',
  slotLimit: 45,
  groupMajorLimit: 6,
  tierCounts: { 冲: 0, 稳: 1, 保: 0 },
  total: 1,
  rows: [group(41, '武汉大学', '06')],
  ...over,
});

function serve(options: GroupOptions, save?: (body: unknown) => Response) {
  server.use(
    mock.post('*/dev-api/volunteer/groups/options', () => ok(options)),
    mock.post('*/appv2/api/index/zyInfo', () => ok({ student: hubeiStudent, plan: null, items: [], warnings: [], slotLimit: 45, groupMajorLimit: 6 })),
    mock.post('*/dev-api/api/Subscriber/save', async ({ request }) => (save ? save(await request.json()) : ok(null))),
  );
}

describe('院校专业组 filling board', () => {
  it('below the 本科 line shows the server message and offers no group', async () => {
    const message = '考生分数 400 低于湖北 2025 年物理类本科线 426 分，不能填报本科院校专业组';
    serve(answer({ belowBatchLine: true, message, rows: [], total: 0, tierCounts: { 冲: 0, 稳: 0, 保: 0 } }));
    renderInApp(<GroupFillingBoard student={{ ...hubeiStudent, score: 400 }} rules={rules} refreshKey={0} />);
    expect(await screen.findByText(message)).toBeTruthy();
    expect(screen.getByText('没有符合条件的院校专业组')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^选专业 / })).toBeNull();
  });

  it('adds a group with its majors and 服从调剂, saves them, and shows the server refusal when a limit is hit', async () => {
    const bodies: unknown[] = [];
    const refusal = '志愿数量超过上限：湖北本科批最多填报 45 个院校专业组，当前 46 个';
    serve(answer({}), (body) => {
      bodies.push(body);
      return HttpResponse.json({ code: 500, msg: refusal });
    });
    renderInApp(<GroupFillingBoard student={hubeiStudent} rules={rules} refreshKey={0} />);
    // The row: school, group, 再选 requirement, the borrowed-spread flag.
    fireEvent.click(await screen.findByRole('button', { name: '选专业 武汉大学 第06组' }));
    expect(screen.getByText('第06组 · 湖北武汉')).toBeTruthy();
    expect(screen.getByText('波动借用山东')).toBeTruthy();
    expect(screen.getByText('物理类 · 再选 化学、生物 · 只显示选科要求相符的专业组 · 本科线 426 分')).toBeTruthy();
    const picker = await screen.findByTestId('group-majors');
    const input = within(picker).getByRole('combobox');
    // Typed names separated by ， (or 、 and , like the 意向专业 field) become one tag each.
    fireEvent.change(input, { target: { value: '法学，经济学，' } });
    await waitFor(() => expect(within(picker).getByText('已选 2/6')).toBeTruthy());
    fireEvent.click(within(picker).getByRole('checkbox', { name: '服从调剂' }));
    fireEvent.click(within(picker).getByRole('button', { name: '加入志愿表 武汉大学 第06组' }));

    const row = await screen.findByTestId('plan-row');
    expect(row.textContent).toContain('第06组 · 法学、经济学');
    expect(within(row).getByRole('switch').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('button', { name: '已加入 武汉大学 第06组' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(screen.getAllByText(refusal).length).toBeGreaterThan(0));
    expect(bodies).toEqual([{ studentId: 1, version: 0, items: [{ lineId: 41, obey: false, majors: ['法学', '经济学'] }] }]);
    // Nothing is lost: the entry stays, unsaved.
    expect(screen.getByText('未保存')).toBeTruthy();
  });
});
