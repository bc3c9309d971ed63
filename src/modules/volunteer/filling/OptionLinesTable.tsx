import { Button, Table, type TableColumnsType } from 'antd';

import type { ChanceRow } from '@/api/volunteer';
import { figureYear, lineFigures, targetYearOf } from '../shared/format';
import { LineFlagTags } from '../shared/lineTags';
import { Probability, TierTag } from '../shared/tiers';

export interface OptionLinesTableProps {
  rows: ChanceRow[];
  /** Which column names the option: the major (in a school) or the school (for a major). */
  show: 'major' | 'school';
  inPlan: ReadonlySet<number>;
  canAdd: boolean;
  onAdd: (row: ChanceRow) => void;
  onChance: (row: ChanceRow) => void;
  /** Columns a dialog adds after the line figures (专业详情: the school's 学科评估 grade). */
  extraColumns?: TableColumnsType<ChanceRow>;
}

/** Admission lines inside the school and major dialogs, with probability and 加入. */
export function OptionLinesTable({ rows, show, inPlan, canAdd, onAdd, onChance, extraColumns = [] }: OptionLinesTableProps) {
  const target = rows.length ? targetYearOf(rows[0]) : null;
  return (
    <Table<ChanceRow>
      rowKey="lineId"
      size="small"
      virtual
      scroll={{ y: 360 }}
      pagination={false}
      dataSource={rows}
      locale={{ emptyText: '暂无录取数据' }}
      columns={[
        {
          title: show === 'major' ? '专业' : '院校',
          key: 'name',
          ellipsis: true,
          render: (_v, r) => (
            <span style={{ display: 'inline-flex', alignItems: 'center', gap: 4, maxWidth: '100%' }}>
              <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{(show === 'major' ? r.majorName : r.schoolName) || '--'}</span>
              <LineFlagTags row={{ ...r, year: figureYear(r) }} />
            </span>
          ),
        },
        {
          title: '最低分 · 位次',
          key: 'line',
          width: 170,
          render: (_v, r) => (
            <span style={{ fontVariantNumeric: 'tabular-nums' }}>{lineFigures({ year: figureYear(r), minScore: r.minScore, minRank: r.minRank })}</span>
          ),
        },
        ...extraColumns,
        {
          title: target ? `${target}概率` : '概率',
          dataIndex: 'probability',
          width: 90,
          render: (p, r) => (
            <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onChance(r)} disabled={r.probability == null && !r.explanation}>
              <Probability probability={p} text={r.probabilityText} tier={r.tier} />
            </Button>
          ),
        },
        { title: '梯度', dataIndex: 'tier', width: 64, render: (t) => <TierTag tier={t} /> },
        {
          title: '操作',
          key: 'add',
          width: 80,
          render: (_v, r) =>
            inPlan.has(r.lineId) ? (
              <span style={{ color: '#999' }}>已加入</span>
            ) : (
              <Button size="small" type="link" disabled={!canAdd} onClick={() => onAdd(r)}>
                加入
              </Button>
            ),
        },
      ]}
    />
  );
}
