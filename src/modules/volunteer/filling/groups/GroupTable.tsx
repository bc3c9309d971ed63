import { Button, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import type { GroupOptionRow } from '@/api/volunteer';
import { formatRank } from '../../shared/format';
import { Probability, TIER_STYLE, TierTag } from '../../shared/tiers';
import { type OptionsPaging, optionsPagination } from '../optionsPaging';
import { GroupMajorsPicker } from './GroupMajorsPicker';

export interface GroupTableProps {
  rows: GroupOptionRow[];
  loading: boolean;
  height: number;
  majorLimit: number;
  /** Set when the group probabilities use a spread borrowed from another province (one year of data). */
  borrowedSpread: string | null;
  /** The plan's entry for a line (majors, 服从调剂), or null when the group is not in the plan. */
  entryOf: (lineId: number) => { majors: string[]; obey: boolean } | null;
  canAdd: boolean;
  /** The student's 意向专业 (choices in the majors picker). */
  suggestions: string[];
  expanded: number[];
  onExpand: (lineIds: number[]) => void;
  onSubmit: (row: GroupOptionRow, majors: string[], obey: boolean) => void;
  paging: OptionsPaging;
}

/**
 * The student's 院校专业组 options, one server page at a time: school, group code, 再选 requirement, last year's
 * min score and rank, plan count, probability and tier. A row expands to pick the group's majors and 服从调剂.
 */
export function GroupTable({
  rows,
  loading,
  height,
  majorLimit,
  borrowedSpread,
  entryOf,
  canAdd,
  suggestions,
  expanded,
  onExpand,
  onSubmit,
  paging,
}: GroupTableProps) {
  const toggle = (lineId: number) => onExpand(expanded.includes(lineId) ? expanded.filter((id) => id !== lineId) : [...expanded, lineId]);
  const columns: TableProps<GroupOptionRow>['columns'] = [
    {
      title: '院校 · 专业组',
      key: 'group',
      render: (_v, r) => (
        <div style={{ borderLeft: `3px solid ${r.tier ? TIER_STYLE[r.tier].color : '#d9d9d9'}`, paddingLeft: 8, minWidth: 0 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
            <Typography.Text strong ellipsis title={r.schoolName} style={{ flex: '0 1 auto', minWidth: 0 }}>
              {r.schoolName}
            </Typography.Text>
            {r.tags.map((t) => (
              <Tag key={t} bordered={false} color="gold" style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', padding: '0 3px', flex: 'none' }}>
                {t}
              </Tag>
            ))}
          </div>
          <span style={{ fontSize: 12, color: 'rgba(0,0,0,.65)' }}>
            第{r.groupCode}组{r.province ? ` · ${r.province}${r.city && r.city !== r.province ? r.city : ''}` : ''}
          </span>
        </div>
      ),
    },
    { title: '选科要求', dataIndex: 'subjectReq', width: 92, render: (v: string) => <span style={{ fontSize: 12 }}>{v}</span> },
    {
      title: '最低分/位次',
      key: 'line',
      width: 92,
      render: (_v, r) => (
        <div style={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.4 }}>
          <div>{r.minScore}</div>
          <div style={{ fontSize: 12, color: '#888' }}>{formatRank(r.minRank)}</div>
        </div>
      ),
    },
    {
      title: '计划',
      dataIndex: 'planCount',
      width: 56,
      render: (v: number | null) =>
        v == null ? (
          <Tooltip title="当年未公布招生计划人数">
            <span style={{ color: '#999' }}>--</span>
          </Tooltip>
        ) : (
          v
        ),
    },
    {
      title: '录取率',
      dataIndex: 'probability',
      width: 86,
      render: (p: number | null, r) => (
        <div style={{ lineHeight: 1.3 }}>
          <Probability probability={p} text={r.probabilityText} tier={r.tier} />
          {borrowedSpread && p != null ? (
            <Tooltip title={borrowedSpread}>
              <div style={{ fontSize: 11, color: '#d46b08', cursor: 'help' }}>波动借用山东</div>
            </Tooltip>
          ) : null}
        </div>
      ),
    },
    { title: '梯度', dataIndex: 'tier', width: 52, align: 'center', render: (t) => <TierTag tier={t} /> },
    {
      title: '操作',
      key: 'actions',
      width: 88,
      render: (_v, r) => {
        const inPlan = entryOf(r.lineId) != null;
        const open = expanded.includes(r.lineId);
        return (
          <Button
            size="small"
            type={inPlan ? 'link' : 'primary'}
            ghost={!inPlan}
            disabled={!canAdd && !inPlan}
            aria-expanded={open}
            aria-label={`${inPlan ? '已加入' : '选专业'} ${r.schoolName} 第${r.groupCode}组`}
            onClick={() => toggle(r.lineId)}
          >
            {inPlan ? '已加入' : open ? '收起' : '选专业'}
          </Button>
        );
      },
    },
  ];
  return (
    <Table<GroupOptionRow>
      className="zy-group-table"
      rowKey="lineId"
      size="small"
      loading={{ spinning: loading, tip: '正在计算录取概率...' }}
      columns={columns}
      dataSource={rows}
      expandable={{
        expandedRowKeys: expanded,
        onExpandedRowsChange: (keys) => onExpand(keys.map(Number)),
        showExpandColumn: false,
        expandedRowRender: (r) => (
          <GroupMajorsPicker
            key={`${r.lineId}-${entryOf(r.lineId) ? 'in' : 'out'}`}
            row={r}
            limit={majorLimit}
            current={entryOf(r.lineId)}
            disabled={!canAdd}
            suggestions={suggestions}
            onSubmit={(majors, obey) => onSubmit(r, majors, obey)}
          />
        ),
      }}
      pagination={optionsPagination(paging)}
      scroll={{ x: 640, y: height }}
      locale={{ emptyText: '没有符合条件的院校专业组' }}
    />
  );
}
