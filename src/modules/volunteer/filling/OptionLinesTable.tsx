import { Button, Table } from 'antd';
import type { ChanceRow } from '@/api/volunteer';
import { formatRank } from '../shared/format';
import { Probability, TierTag } from '../shared/tiers';

export interface OptionLinesTableProps {
  rows: ChanceRow[];
  /** Which column names the option: the major (in a school) or the school (for a major). */
  show: 'major' | 'school';
  inPlan: ReadonlySet<number>;
  canAdd: boolean;
  onAdd: (row: ChanceRow) => void;
  onChance: (row: ChanceRow) => void;
}

/** Admission lines inside the school and major dialogs, with probability and 加入. */
export function OptionLinesTable({ rows, show, inPlan, canAdd, onAdd, onChance }: OptionLinesTableProps) {
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
        show === 'major'
          ? { title: '专业', dataIndex: 'majorName', ellipsis: true, render: (v) => v || '--' }
          : { title: '院校', dataIndex: 'schoolName', ellipsis: true },
        { title: '最低分', dataIndex: 'minScore', width: 80, render: (v) => v ?? '--' },
        { title: '最低位次', dataIndex: 'minRank', width: 100, render: formatRank },
        {
          title: '概率',
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
