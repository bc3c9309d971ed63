import { Empty, Select, Space, Spin, Table, Tag, Tooltip, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { lineFigures } from '../shared/format';
import type { SchoolHistory as SchoolHistoryData, SchoolProgramme, SchoolYearLine } from './api';

const SchoolLinesChart = lazy(() => import('./SchoolLinesChart'));

const SMALL_TAG = { marginInlineEnd: 4, fontSize: 11, lineHeight: '16px', padding: '0 3px' };

/** "2021–2026年" (or one year) for the loaded years; empty when none. */
const yearSpan = (years: readonly number[]) => (years.length ? `${years[0]}${years.length > 1 ? `–${years[years.length - 1]}` : ''}年` : '');

/** The row's label: its newest printed name, told apart by 专业代号 when two lines of one year share the programme. */
export const programmeLabel = (p: SchoolProgramme) =>
  `${p.majorName}${p.sharedIdentity && p.majorCode ? `（${p.latestYear}年专业代号 ${p.majorCode}）` : ''}${p.stopped ? `（${p.latestYear}年后停招）` : ''}`;

/**
 * 历年分数线: one row per programme (the school's lines of every loaded year joined by programme, never by 专业代号,
 * which changes every year), the years as columns: each year's 专业代号, score and rank, derived score, plan count and
 * its change against the year before, and the 新增 / 恢复招生 / 停招 tags. Above, a chart of one chosen programme.
 */
export function SchoolHistory({ data }: { data: SchoolHistoryData }) {
  const [picked, setPicked] = useState<string | undefined>(() => data.majors[0]?.key);
  const major = data.majors.find((m) => m.key === picked) ?? data.majors[0];
  const years = useMemo(() => [...data.years].sort((a, b) => b - a), [data.years]);
  if (!data.majors.length) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`该校在已导入的${yearSpan(data.years) || '年份'}中没有专业录取数据，无法显示历年分数线`} />;
  }
  return (
    <>
      <Space style={{ marginBottom: 8 }} wrap>
        <Typography.Text>专业</Typography.Text>
        <Select
          showSearch
          optionFilterProp="label"
          style={{ width: 360 }}
          value={major?.key}
          onChange={setPicked}
          options={data.majors.map((m) => ({ value: m.key, label: programmeLabel(m) }))}
          aria-label="选择专业"
        />
        <Typography.Text type="secondary">
          每行是同一专业的历年录取（按专业名称对应，专业代号每年会变）；换算分：该年最低位次在 {data.scaleYear ?? '--'} 年一分一段表中对应的分数，可跨年比较
        </Typography.Text>
      </Space>
      <Suspense fallback={<Spin />}>{major ? <SchoolLinesChart lines={major.lines} years={data.years} scaleYear={data.scaleYear} /> : null}</Suspense>
      <Table<SchoolProgramme>
        size="small"
        rowKey="key"
        dataSource={data.majors}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (n) => `共 ${n} 个专业（${yearSpan(data.years)}）` }}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: '专业',
            key: 'major',
            fixed: 'left',
            width: 260,
            render: (_: unknown, m: SchoolProgramme) => <ProgrammeCell programme={m} latestYear={data.latestYear} />,
          },
          {
            title: '选科要求',
            key: 'subjectReq',
            width: 110,
            render: (_: unknown, m: SchoolProgramme) => (m.subjectReq ? `${m.latestYear} · ${m.subjectReq}` : `${m.latestYear} · 未知`),
          },
          ...years.map((year) => ({
            title: `${year}年`,
            key: String(year),
            width: 190,
            render: (_: unknown, m: SchoolProgramme) => <YearCell year={year} previousYear={years[years.indexOf(year) + 1] ?? null} programme={m} />,
          })),
        ]}
      />
    </>
  );
}

function ProgrammeCell({ programme: m, latestYear }: { programme: SchoolProgramme; latestYear: number | null }) {
  return (
    <div style={{ lineHeight: 1.5 }}>
      <div>
        {m.majorName}
        {m.sharedIdentity && m.majorCode ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {' '}
            （{m.latestYear}年专业代号 {m.majorCode}）
          </Typography.Text>
        ) : null}
      </div>
      {m.stopped ? (
        <div>
          <Tag color="red" style={SMALL_TAG}>
            停招
          </Tag>
          <Typography.Text type="danger" style={{ fontSize: 12 }}>
            未在{latestYear ?? m.latestYear + 1}年招生（最后招生 {m.latestYear}年）
          </Typography.Text>
        </div>
      ) : null}
      {m.formerNames.length ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          曾用名：
          {m.formerNames
            .map((n) => {
              const years = m.lines.filter((l) => l.majorName === n).map((l) => l.year);
              return `${n}（${years.join('、')}年）`;
            })
            .join('；')}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** One programme's year: its figures with their year, or 停招 / 未招生 when it has no line that year. */
function YearCell({ year, previousYear, programme }: { year: number; previousYear: number | null; programme: SchoolProgramme }) {
  const line = programme.lines.find((l) => l.year === year);
  if (!line) {
    if (programme.stoppedYears.includes(year)) {
      return (
        <Tooltip title={`${previousYear ?? '上一'}年招生，${year}年未招生（停招）`}>
          <Tag color="red" style={SMALL_TAG}>
            停招
          </Tag>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {year}年未招生
          </Typography.Text>
        </Tooltip>
      );
    }
    return <Typography.Text type="secondary">—</Typography.Text>;
  }
  return (
    <div style={{ lineHeight: 1.5 }}>
      <div>
        {line.tag ? (
          <Tag color={line.tag === '新增' ? 'green' : 'blue'} style={SMALL_TAG}>
            {line.tag}
          </Tag>
        ) : null}
        <b>{lineFigures(line)}</b>
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        专业代号 {line.majorCode ?? '--'} · 换算 {line.derivedScore ?? '--'} 分 · <PlanText line={line} previousYear={previousYear} />
      </Typography.Text>
      {line.majorName !== programme.majorName ? (
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            当年名称：{line.majorName}
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}

/** 计划 10 人（较2023年+2）: the plan count and its change against the year before, when both are known. */
function PlanText({ line, previousYear }: { line: SchoolYearLine; previousYear: number | null }) {
  if (line.planCount == null) return <>计划未公布</>;
  if (line.planChange == null) return <>计划 {line.planCount} 人</>;
  const sign = line.planChange > 0 ? `+${line.planChange}` : line.planChange === 0 ? '持平' : String(line.planChange);
  return (
    <>
      计划 {line.planCount} 人（
      <span
        style={{ color: line.planChange > 0 ? '#389e0d' : line.planChange < 0 ? '#cf1322' : undefined }}
        title={`${previousYear ?? '上一'}年计划 ${line.previousPlanCount ?? '--'} 人`}
      >
        较{previousYear ?? '上'}年{sign}
      </span>
      ）
    </>
  );
}
