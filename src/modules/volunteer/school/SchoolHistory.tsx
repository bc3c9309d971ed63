import { Select, Space, Spin, Table, Typography } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import type { SchoolMajorLines, SchoolYearLine } from '@/api/volunteer';
import { formatRank } from '../shared/format';

const SchoolLinesChart = lazy(() => import('./SchoolLinesChart'));

type Major = SchoolMajorLines['majors'][number];

/** 历年分数线: a chart of one chosen major over the years, and every major's line per year (score, rank, derived score, plan). */
export function SchoolHistory({ data }: { data: SchoolMajorLines }) {
  const [picked, setPicked] = useState<string>(() => keyOf(data.majors[0]));
  const major = data.majors.find((m) => keyOf(m) === picked) ?? data.majors[0];
  const years = useMemo(() => [...data.years].sort((a, b) => b - a), [data.years]);
  return (
    <>
      <Space style={{ marginBottom: 8 }} wrap>
        <Typography.Text>专业</Typography.Text>
        <Select
          showSearch
          optionFilterProp="label"
          style={{ width: 360 }}
          value={keyOf(major)}
          onChange={setPicked}
          options={data.majors.map((m) => ({ value: keyOf(m), label: m.majorName }))}
          aria-label="选择专业"
        />
        <Typography.Text type="secondary">换算分：该年最低位次在 {data.scaleYear ?? '--'} 年一分一段表中对应的分数，可跨年比较</Typography.Text>
      </Space>
      <Suspense fallback={<Spin />}>{major ? <SchoolLinesChart lines={major.lines} scaleYear={data.scaleYear} /> : null}</Suspense>
      <Table<Major>
        size="small"
        rowKey={keyOf}
        dataSource={data.majors}
        pagination={{ pageSize: 10, showSizeChanger: false, showTotal: (n) => `共 ${n} 个专业` }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: '专业', dataIndex: 'majorName', fixed: 'left', width: 240 },
          { title: '选科要求', dataIndex: 'subjectReq', width: 100, render: (v: string | null) => v ?? '--' },
          ...years.map((year) => ({
            title: `${year}年`,
            key: String(year),
            width: 150,
            render: (_: unknown, m: Major) => <YearCell line={m.lines.find((l) => l.year === year)} />,
          })),
        ]}
      />
    </>
  );
}

function YearCell({ line }: { line: SchoolYearLine | undefined }) {
  if (!line) return <Typography.Text type="secondary">未招生</Typography.Text>;
  return (
    <div style={{ lineHeight: 1.5 }}>
      <div>
        <b>{line.minScore}</b> 分 · 位次 {formatRank(line.minRank)}
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        换算 {line.derivedScore ?? '--'} 分{line.planCount != null ? ` · 计划 ${line.planCount} 人` : ''}
      </Typography.Text>
    </div>
  );
}

function keyOf(m: Major | undefined): string {
  return m ? (m.majorCode ? `c:${m.majorCode}` : `n:${m.majorName}`) : '';
}
