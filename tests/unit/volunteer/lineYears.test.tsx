import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChanceRow, ProvinceRules } from '@/api/volunteer';
import { ChanceDialog } from '@/modules/volunteer/filling/ChanceDialog';
import { OptionsTable } from '@/modules/volunteer/filling/OptionsTable';
import { StudentHeader } from '@/modules/volunteer/filling/StudentHeader';
import { mock, ok, renderInApp, row, student, useVolunteerServer } from './harness';

/**
 * Every figure of a line carries its year (issue 23): the list, the 录取率 dialog and the student header say which
 * year a minimum score / rank is from, which exam year an estimate is for, and flag 新增 and 选科要求未知 lines.
 */
const server = useVolunteerServer();

/** The expected text of a line's figures, written out here rather than with the console's helper. */
const figures = (y: { year: number; minScore: number; minRank: number }) => `${y.year} · ${y.minScore}分 · ${y.minRank.toLocaleString('en-US')}名`;

const CATALOGUE = 2026;
const history = [
  { year: CATALOGUE, minScore: 581, minRank: 29348, planCount: null, majorName: '计算机科学与技术' },
  { year: CATALOGUE - 1, minScore: 575, minRank: 31207, planCount: 6, majorName: '计算机科学与技术' },
  { year: CATALOGUE - 2, minScore: 570, minRank: 33010, planCount: 5, majorName: '计算机科学与技术(师范类)' },
];
const known: ChanceRow = {
  ...row(1, '济南大学', '计算机科学与技术', '稳'),
  year: CATALOGUE,
  targetYear: CATALOGUE + 1,
  majorCode: '0A',
  subjectReq: '物理和化学',
  ownership: '公办',
  isNew: false,
  years: history,
  minScore: history[0].minScore,
  minRank: history[0].minRank,
  estimatedRank: 30100,
  flags: [],
};
const fresh: ChanceRow = {
  ...row(2, '山东大学', '人工智能', '冲'),
  year: CATALOGUE,
  targetYear: CATALOGUE + 1,
  subjectReq: '物理',
  isNew: true,
  years: [{ year: CATALOGUE, minScore: 640, minRank: 8123, planCount: null, majorName: null }],
  minScore: 640,
  minRank: 8123,
  flags: ['new-line'],
};
const unknownSubjects: ChanceRow = {
  ...row(3, '青岛大学', '日语', '保'),
  year: CATALOGUE,
  targetYear: CATALOGUE + 1,
  subjectReq: null,
  isNew: false,
  years: [
    { year: CATALOGUE, minScore: 540, minRank: 80410, planCount: null, majorName: null },
    { year: CATALOGUE - 1, minScore: 536, minRank: 82077, planCount: null, majorName: null },
  ],
  minScore: 540,
  minRank: 80410,
  flags: ['subject-unknown'],
};

function table(rows: ChanceRow[]) {
  return renderInApp(
    <OptionsTable
      rows={rows}
      loading={false}
      height={600}
      inPlan={new Set()}
      liked={() => false}
      canAdd
      onAdd={() => undefined}
      onToggleLike={() => undefined}
      onSchool={() => undefined}
      onMajor={() => undefined}
      onChance={() => undefined}
    />,
  );
}

/** The table row of a line, by its school (the table is virtual: rows are not <tr>). */
const rowOf = (schoolName: string) => screen.getByText(schoolName).closest('.ant-table-row') as HTMLElement;

describe('options list: figures with their year', () => {
  it('shows each line as "year · score · rank", the estimate for the exam year, and the probability column names that year', async () => {
    table([known, fresh, unknownSubjects]);
    for (const r of [known, fresh, unknownSubjects]) {
      const line = within(rowOf(r.schoolName));
      expect(line.getByText(figures({ year: r.year as number, minScore: r.minScore as number, minRank: r.minRank as number }))).toBeTruthy();
    }
    expect(within(rowOf(known.schoolName)).getByText(`${known.targetYear} 估计位次 ${(known.estimatedRank as number).toLocaleString('en-US')}`)).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: `${known.targetYear}录取率` })).toBeTruthy();
    // 选科 as the line states it.
    expect(within(rowOf(known.schoolName)).getByText(`选科 ${known.subjectReq}`)).toBeTruthy();

    // The older years, each with its own year, on hover.
    fireEvent.mouseEnter(within(rowOf(known.schoolName)).getByText(figures(history[0])));
    for (const y of history.slice(1)) expect(await screen.findByText(new RegExp(`^${figures(y)} · 计划 ${y.planCount} 人`))).toBeTruthy();
    expect(screen.getByText(new RegExp(`当年名称 ${history[2].majorName.replace(/[()]/g, '\\$&')}`))).toBeTruthy();
  });

  it('tags 新增 and 选科要求未知 only on the lines flagged so, each saying what it means', async () => {
    table([known, fresh, unknownSubjects]);
    expect(within(rowOf(fresh.schoolName)).getByText('新增')).toBeTruthy();
    expect(within(rowOf(unknownSubjects.schoolName)).getByText('选科要求未知')).toBeTruthy();
    expect(within(rowOf(known.schoolName)).queryByText('新增')).toBeNull();
    expect(within(rowOf(known.schoolName)).queryByText('选科要求未知')).toBeNull();
    expect(within(rowOf(fresh.schoolName)).queryByText('选科要求未知')).toBeNull();
    expect(within(rowOf(unknownSubjects.schoolName)).queryByText('新增')).toBeNull();

    fireEvent.mouseEnter(within(rowOf(fresh.schoolName)).getByText('新增'));
    expect(await screen.findByText(/新增的专业：往年没有录取数据，录取率按同类专业的更宽波动估算/)).toBeTruthy();
    fireEvent.mouseEnter(within(rowOf(unknownSubjects.schoolName)).getByText('选科要求未知'));
    expect(await screen.findByText(/智能填报不会自动选用/)).toBeTruthy();
  });
});

describe('录取率 dialog: figures with their year', () => {
  it('names the exam year of the estimate and lists every history year with its year', async () => {
    const explained: ChanceRow = {
      ...known,
      method: 'rank',
      explanation: `按校准模型：${CATALOGUE}年最低位次 ${known.minRank}（1年数据），估计录取位次 ${known.estimatedRank}，波动取自位次段 10000–30000 × 1年数据的历年实际偏差，你的位次 25061，录取概率 60.00%，稳`,
    };
    renderInApp(<ChanceDialog target={explained} studentId={1} studentScore={600} studentRank={25061} onClose={() => undefined} />);
    expect(await screen.findByText(`${known.targetYear} 估计位次`)).toBeTruthy();
    expect(screen.getByText((known.estimatedRank as number).toLocaleString('en-US'))).toBeTruthy();
    // The newest year heads the dialog.
    expect(screen.getByText(figures(history[0]), { selector: 'b' })).toBeTruthy();
    const list = within(screen.getByRole('list', { name: '历年录取' }));
    expect(list.getAllByRole('listitem')).toHaveLength(history.length);
    for (const y of history) expect(list.getByText(new RegExp(`^${figures(y)}`))).toBeTruthy();
  });

  it('tags a new line in the dialog too', async () => {
    const explained: ChanceRow = { ...fresh, explanation: `新增专业（${CATALOGUE}年首次招生）：估计录取位次 8123，你的位次 25061，录取概率 20.00%，冲` };
    renderInApp(<ChanceDialog target={explained} studentId={1} studentScore={600} studentRank={25061} onClose={() => undefined} />);
    expect(await screen.findByText('新增')).toBeTruthy();
    expect(
      screen.getByText(figures({ year: CATALOGUE, minScore: fresh.minScore as number, minRank: fresh.minRank as number }), { selector: 'b' }),
    ).toBeTruthy();
  });
});

describe('student header', () => {
  const rules: ProvinceRules = {
    province: '山东',
    mode: '3+3',
    subjectType: 2,
    zyType: 1,
    zyTypeName: '专业+院校',
    slotLimit: 96,
    groupMajorLimit: 0,
    cohortSize: 681127,
    years: [CATALOGUE, CATALOGUE - 1, CATALOGUE - 2],
    batches: ['常规批'],
    tracks: ['综合'],
    batchLines: [],
    subjects: [],
    notes: [],
  };

  it('shows the exam year the student fills and the catalogue year the figures come from', async () => {
    server.use(mock.get('*/dev-api/api/index/subscriber', () => ok(null, { rows: [], total: 0 })));
    const s = { ...student, examYear: rules.years[0] + 1 };
    renderInApp(<StudentHeader student={s} rules={rules} onEdit={() => undefined} onSwitch={() => undefined} />);
    expect(screen.getByLabelText('高考年份').textContent).toBe(`${s.examYear}年高考`);
    expect(screen.getByLabelText('招生目录年份').textContent).toBe(`按${rules.years[0]}年招生目录 · 估计${rules.years[0] + 1}年录取`);
  });
});
