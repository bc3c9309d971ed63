import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SchoolDialog } from '@/modules/volunteer/filling/SchoolDialog';
import type { SchoolHistory as SchoolHistoryData, SchoolProgramme, SchoolYearLine } from '@/modules/volunteer/school/api';
import { SchoolHistory } from '@/modules/volunteer/school/SchoolHistory';
import { ok as answer, mock, renderInApp, useVolunteerServer } from './harness';

// ECharts needs a real layout engine; the chart is not what these tests read.
vi.mock('@/modules/volunteer/school/SchoolLinesChart', () => ({ default: () => <div role="img" aria-label="历年分数线走势图" /> }));

const server = useVolunteerServer();

const yearLine = (l: Partial<SchoolYearLine> & Pick<SchoolYearLine, 'year' | 'majorName' | 'minScore' | 'minRank'>): SchoolYearLine => ({
  lineId: l.year * 10 + l.minScore,
  batch: '常规批',
  majorCode: null,
  planCount: null,
  derivedScore: l.minScore + 2,
  subjectReq: null,
  tag: null,
  planChange: null,
  previousPlanCount: null,
  ...l,
});

const programme = (p: Partial<SchoolProgramme> & Pick<SchoolProgramme, 'key' | 'lines'>): SchoolProgramme => ({
  identity: p.key,
  majorName: p.lines[0].majorName,
  formerNames: [],
  majorCode: p.lines[0].majorCode,
  subjectReq: p.lines[0].subjectReq,
  firstYear: p.lines[p.lines.length - 1].year,
  latestYear: p.lines[0].year,
  sharedIdentity: false,
  stopped: false,
  stoppedYears: [],
  ...p,
});

const cs = '计算机科学与技术(济南走读)';
const history = '历史学(济南走读，师范类)';
const computing = programme({
  key: 'cs',
  lines: [
    yearLine({ year: 2026, majorName: cs, majorCode: '35', minScore: 560, minRank: 51988, subjectReq: '物理、化学' }),
    yearLine({ year: 2025, majorName: cs, majorCode: '31', minScore: 562, minRank: 53961, planCount: 4, previousPlanCount: 10, planChange: -6 }),
    yearLine({ year: 2024, majorName: cs, majorCode: '3B', minScore: 565, minRank: 55578, planCount: 10, tag: '新增' }),
  ],
});
const teaching = programme({
  key: 'hist',
  formerNames: ['历史学(师范类，济南走读)'],
  lines: [
    yearLine({ year: 2026, majorName: history, majorCode: '21', minScore: 540, minRank: 78058, subjectReq: '不限' }),
    yearLine({ year: 2025, majorName: '历史学(师范类，济南走读)', majorCode: '21', minScore: 545, minRank: 73231, planCount: 3 }),
    yearLine({ year: 2024, majorName: '历史学(师范类，济南走读)', majorCode: '31', minScore: 548, minRank: 68890, planCount: 10 }),
  ],
});
const stopped = programme({
  key: 'cs-old',
  stopped: true,
  stoppedYears: [2024],
  lines: [
    yearLine({
      year: 2023,
      majorName: '计算机类(济南走读)',
      majorCode: '64',
      minScore: 570,
      minRank: 55675,
      planCount: 20,
      previousPlanCount: 10,
      planChange: 10,
    }),
    yearLine({ year: 2022, majorName: '计算机类(济南走读)', majorCode: '32', minScore: 566, minRank: 60588, planCount: 10 }),
  ],
});

const data: SchoolHistoryData = {
  school: {
    schoolCode: 'Y016',
    name: '济南大学',
    province: '山东',
    city: '济南',
    level: '本科',
    isPublic: null,
    ownership: '公办',
    authority: '山东省',
    tags: [],
  },
  years: [2022, 2023, 2024, 2025, 2026],
  latestYear: 2026,
  scaleYear: 2026,
  majors: [computing, teaching, stopped],
  plans: [
    { year: 2026, majors: 2, planTotal: null, added: 0, stopped: 0 },
    { year: 2025, majors: 2, planTotal: 7, added: 0, stopped: 0 },
    { year: 2024, majors: 2, planTotal: 20, added: 1, stopped: 1 },
  ],
};

/** The table row of a programme, found by its name cell. */
const rowOf = (name: string) => {
  const cell = screen.getAllByText(name).find((el) => el.closest('.ant-table-row'));
  const row = cell?.closest('.ant-table-row');
  if (!(row instanceof HTMLElement)) throw new Error(`no row for ${name}`);
  return row;
};

/** The cell of a year column in a row (columns: 专业, 选科要求, then the years newest first). */
const cellOf = (row: HTMLElement, year: number) => {
  const years = [...data.years].sort((a, b) => b - a);
  return row.querySelectorAll('td')[2 + years.indexOf(year)] as HTMLElement;
};

const figures = (l: SchoolYearLine) => `${l.year} · ${l.minScore}分 · ${(l.minRank as number).toLocaleString('zh-CN')}名`;

describe('院校详情 → 历年分数线', () => {
  it('shows one row per programme with each year as a column, every figure with its year, 新增 and the plan change', async () => {
    renderInApp(<SchoolHistory data={data} />);
    const rows = document.querySelectorAll('.ant-table-tbody .ant-table-row');
    expect(rows).toHaveLength(data.majors.length);
    for (const year of data.years) expect(screen.getByRole('columnheader', { name: `${year}年` })).toBeTruthy();

    const cs = rowOf(computing.majorName);
    for (const l of computing.lines) {
      const cell = cellOf(cs, l.year);
      expect(within(cell).getByText(figures(l))).toBeTruthy();
      expect(cell.textContent).toContain(`专业代号 ${l.majorCode}`);
    }
    const first = computing.lines[computing.lines.length - 1];
    expect(within(cellOf(cs, first.year)).getByText('新增')).toBeTruthy();
    expect(cellOf(cs, first.year).textContent).toContain(`计划 ${first.planCount} 人`);
    const changed = computing.lines[1];
    expect(cellOf(cs, changed.year).textContent).toContain(`计划 ${changed.planCount} 人（较${changed.year - 1}年${changed.planChange}）`);
    // 2026 has no plan counts: said so, no change claimed.
    expect(cellOf(cs, computing.lines[0].year).textContent).toContain('计划未公布');
    // Years before the programme existed are empty, not 停招.
    expect(within(cellOf(cs, 2023)).queryByText('停招')).toBeNull();
  });

  it('shows a renamed programme once, with its former name and the name printed each year', () => {
    renderInApp(<SchoolHistory data={data} />);
    const row = rowOf(teaching.majorName);
    const older = teaching.lines.filter((l) => l.majorName !== teaching.majorName);
    expect(row.textContent).toContain(`曾用名：${teaching.formerNames[0]}（${older.map((l) => l.year).join('、')}年）`);
    for (const l of older) expect(cellOf(row, l.year).textContent).toContain(`当年名称：${l.majorName}`);
    expect([...document.querySelectorAll('.ant-table-row')].filter((r) => r.textContent?.includes('历史学'))).toHaveLength(1);
  });

  it('shows a programme that stopped with 停招 and the newest year it is missing from', () => {
    renderInApp(<SchoolHistory data={data} />);
    const row = rowOf(stopped.majorName);
    expect(row.textContent).toContain(`未在${data.latestYear}年招生（最后招生 ${stopped.latestYear}年）`);
    for (const y of stopped.stoppedYears) expect(within(cellOf(row, y)).getByText('停招')).toBeTruthy();
    for (const l of stopped.lines) expect(within(cellOf(row, l.year)).getByText(figures(l))).toBeTruthy();
  });

  it('tells two programmes of one name apart by their 专业代号', () => {
    const twin = programme({ key: 'cs#2', sharedIdentity: true, lines: computing.lines.map((l) => ({ ...l, majorCode: `${l.majorCode}X` })) });
    renderInApp(<SchoolHistory data={{ ...data, majors: [{ ...computing, sharedIdentity: true }, twin] }} />);
    expect(screen.getByText(`（${computing.latestYear}年专业代号 ${computing.majorCode}）`)).toBeTruthy();
    expect(screen.getByText(`（${twin.latestYear}年专业代号 ${twin.majorCode}）`)).toBeTruthy();
  });

  it('says so when the school has no lines', () => {
    renderInApp(<SchoolHistory data={{ ...data, majors: [], plans: [] }} />);
    expect(screen.getByText(`该校在已导入的${data.years[0]}–${data.years[data.years.length - 1]}年中没有专业录取数据，无法显示历年分数线`)).toBeTruthy();
  });

  it('the 院校详情 dialog loads the history and shows it in the 历年分数线 tab', async () => {
    const asked: unknown[] = [];
    server.use(
      mock.post('*/appv2/api/index/schoolHome', () =>
        answer({
          school: { schoolCode: 'Y016', name: '济南大学', province: '山东', city: '济南', tags: [], level: '本科', isPublic: 1 },
          stats: { majorCount: 2, minScore: 540, maxScore: 560, minRank: 51988, year: 2026 },
          tabs: [],
          lines: [],
        }),
      ),
      mock.post('*/appv2/api/index/schoolYXMajor', async ({ request }) => {
        asked.push(await request.json());
        return answer(data);
      }),
    );
    renderInApp(
      <SchoolDialog schoolCode="Y016" studentId={1} inPlan={new Set()} canAdd onAdd={() => undefined} onChance={() => undefined} onClose={() => undefined} />,
    );
    fireEvent.click(await screen.findByRole('tab', { name: '历年分数线' }));
    expect(await screen.findByText(figures(computing.lines[2]))).toBeTruthy();
    expect(asked).toEqual([{ schoolCode: 'Y016' }]);
    expect(screen.getByText(`未在${data.latestYear}年招生（最后招生 ${stopped.latestYear}年）`)).toBeTruthy();
  });
});
