import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FilterChoices, ProvinceRules } from '@/api/volunteer';
import { FillingBoard } from '@/modules/volunteer/filling/FillingBoard';
import { buildChanceQuery, DEFAULT_FILTERS } from '@/modules/volunteer/filling/filterQuery';
import { HttpResponse, mock, ok, renderInApp, row, student, useVolunteerServer } from './harness';

/** The filling page's filters build the acceptance-rate request the server expects (docs/volunteer-api.md). */
const server = useVolunteerServer();

const rules: ProvinceRules = {
  province: '山东',
  mode: '3+3',
  subjectType: 2,
  zyType: 1,
  zyTypeName: '专业+院校',
  slotLimit: 96,
  groupMajorLimit: 0,
  cohortSize: 681127,
  years: [2025],
  batches: ['常规批'],
  tracks: ['综合'],
  batchLines: [],
  subjects: [],
  notes: [],
};
const choices: FilterChoices = {
  province: '山东',
  year: 2025,
  batch: '常规批',
  regions: [
    { value: '北京', label: '北京', count: 21 },
    { value: '上海', label: '上海', count: 10 },
  ],
  tags: [{ value: '211', count: 100 }],
  levels: [],
  isPublic: [],
  tiers: ['冲', '稳', '保'],
  notes: [],
};

describe('buildChanceQuery', () => {
  it('sends only the filters in use, never every row nor explanations, and a city only inside one province', () => {
    expect(buildChanceQuery(1, DEFAULT_FILTERS)).toEqual({ studentId: 1, sort: 'rank', explain: 0 });
    expect(
      buildChanceQuery(1, {
        ...DEFAULT_FILTERS,
        regions: ['北京'],
        city: '北京',
        level: '本科',
        tags: ['985', '211'],
        isPublic: 0,
        schoolName: '  清华 ',
        majorName: '',
        tier: '稳',
        usePreferences: true,
        includeUnreachable: true,
        sort: 'probability',
      }),
    ).toEqual({
      studentId: 1,
      explain: 0,
      sort: 'probability',
      region: ['北京'],
      city: '北京',
      level: '本科',
      tags: ['985', '211'],
      isPublic: 0,
      schoolName: '清华',
      tier: ['稳'],
      usePreferences: 1,
      includeUnreachable: true,
    });
    expect(buildChanceQuery(1, { ...DEFAULT_FILTERS, regions: ['北京', '上海'], city: '北京' })).not.toHaveProperty('city');
  });
});

describe('filling page filters', () => {
  function answer(total: number) {
    const bodies: Array<Record<string, unknown>> = [];
    server.use(
      mock.post('*/appv2/api/Filling/schoolEnrollChance', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        return HttpResponse.json({
          code: 200,
          msg: '查询成功',
          rows: [row(1, '北京大学', '法学', '冲'), row(2, '山东大学', '医学', '保')],
          total,
          tierCounts: { 冲: 1, 稳: 0, 保: 1, none: 0 },
          notes: ['数据未包含选科要求，未按选科过滤'],
        });
      }),
      mock.post('*/appv2/api/index/zyInfo', () => ok({ student, plan: null, items: [], warnings: [], slotLimit: 96 })),
      mock.post('*/appv2/api/index/areaChilds', () => ok(['北京'])),
    );
    return bodies;
  }
  const last = (bodies: Array<Record<string, unknown>>) => bodies[bodies.length - 1];

  it('asks for one page without explanations, and the next page only when the user pages on', async () => {
    const bodies = answer(5000);
    renderInApp(<FillingBoard student={student} rules={rules} choices={choices} refreshKey={0} />);
    expect(await screen.findByText('共 5,000 条')).toBeTruthy();
    expect(bodies).toEqual([{ studentId: 1, sort: 'rank', explain: 0, pageNum: 1, pageSize: 50 }]);
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({ studentId: 1, sort: 'rank', explain: 0, pageNum: 2, pageSize: 50 });
    // The data lack subject requirements: 选科匹配 is off and says why.
    expect(screen.getByRole('switch', { name: '选科匹配' }).hasAttribute('disabled')).toBe(true);
  });

  it("names the catalogue year of the options and shows every row's figures with that year", async () => {
    const year = 2026;
    const rows = [
      { ...row(1, '北京大学', '法学', '冲'), year, targetYear: year + 1, minScore: 671, minRank: 1234 },
      { ...row(2, '山东大学', '医学', '保'), year, targetYear: year + 1, minScore: 602, minRank: 23456, isNew: true, flags: ['new-line' as const] },
    ];
    server.use(
      mock.post('*/appv2/api/Filling/schoolEnrollChance', () =>
        HttpResponse.json({ code: 200, msg: '查询成功', rows, total: rows.length, tierCounts: { 冲: 1, 稳: 0, 保: 1, none: 0 }, notes: [] }),
      ),
      mock.post('*/appv2/api/index/zyInfo', () => ok({ student, plan: null, items: [], warnings: [], slotLimit: 96 })),
    );
    renderInApp(<FillingBoard student={student} rules={{ ...rules, years: [year - 1] }} choices={choices} refreshKey={0} />);
    // The answer's year wins over the rules' (the rows are what the expert reads).
    expect(await screen.findByText(`可选志愿（${year}年招生目录）`)).toBeTruthy();
    for (const r of rows) expect(screen.getByText(`${r.year} · ${r.minScore}分 · ${r.minRank.toLocaleString('en-US')}名`)).toBeTruthy();
    expect(screen.getAllByText('新增')).toHaveLength(1);
  });

  const board = async () => {
    const bodies = answer(2);
    renderInApp(<FillingBoard student={student} rules={rules} choices={choices} refreshKey={0} />);
    await waitFor(() => expect(bodies).toHaveLength(1));
    return bodies;
  };

  it('tags, school and major names and preferences each change the request; edits close together go out as one', async () => {
    const bodies = await board();
    fireEvent.click(screen.getByRole('checkbox', { name: '211' }));
    await waitFor(() => expect(last(bodies)).toMatchObject({ tags: ['211'] }));

    const before = bodies.length;
    fireEvent.change(screen.getByLabelText('院校名称'), { target: { value: '北京' } });
    fireEvent.change(screen.getByLabelText('专业名称'), { target: { value: '法学' } });
    fireEvent.click(screen.getByRole('checkbox', { name: '按学生意向' }));
    await waitFor(() => expect(last(bodies)).toMatchObject({ tags: ['211'], schoolName: '北京', majorName: '法学', usePreferences: 1 }));
    // Debounced: the three edits went out as one request, not three.
    expect(bodies.length - before).toBe(1);
    expect(last(bodies)).toMatchObject({ studentId: 1, sort: 'rank', explain: 0, pageNum: 1, pageSize: 50 });
  });

  it('a region, then a city inside that one region, change the request', async () => {
    const bodies = await board();
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '院校地区' }));
    fireEvent.click(await screen.findByText('北京（21）'));
    await waitFor(() => expect(last(bodies)).toMatchObject({ region: ['北京'] }));

    const city = screen.getByRole('combobox', { name: '城市' });
    await waitFor(() => expect(city.hasAttribute('disabled')).toBe(false));
    fireEvent.mouseDown(city);
    const options = await screen.findAllByText('北京');
    fireEvent.click(options[options.length - 1]);
    await waitFor(() => expect(last(bodies)).toMatchObject({ region: ['北京'], city: '北京' }));
  });

  it('the tier tab changes the request and keeps the filters', async () => {
    const bodies = await board();
    fireEvent.click(screen.getByRole('checkbox', { name: '211' }));
    await waitFor(() => expect(last(bodies)).toMatchObject({ tags: ['211'] }));
    fireEvent.click(screen.getByText('冲 1'));
    await waitFor(() => expect(last(bodies)).toMatchObject({ tier: ['冲'], tags: ['211'] }));
    expect(last(bodies)).toMatchObject({ studentId: 1, sort: 'rank', explain: 0, pageNum: 1, pageSize: 50 });
  });
});
