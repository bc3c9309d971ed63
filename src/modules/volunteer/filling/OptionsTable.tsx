import { StarFilled, StarOutlined } from '@ant-design/icons';
import { Button, Table, type TableProps, Tag, Tooltip, Typography } from 'antd';
import type { ChanceRow } from '@/api/volunteer';
import { estimateFigure, figureYear, historyFigures, lineFigures, targetYearOf } from '../shared/format';
import { LineFlagTags, OwnershipTag, SubjectReq } from '../shared/lineTags';
import { Probability, TIER_STYLE, TierTag } from '../shared/tiers';
import { type OptionsPaging, optionsPagination } from './optionsPaging';
import { PlanTags } from './PlanTags';

export interface OptionsTableProps {
  rows: ChanceRow[];
  loading: boolean;
  height: number;
  inPlan: ReadonlySet<number>;
  liked: (row: ChanceRow) => boolean;
  canAdd: boolean;
  onAdd: (row: ChanceRow) => void;
  onToggleLike: (row: ChanceRow) => void;
  onSchool: (row: ChanceRow) => void;
  onMajor: (row: ChanceRow) => void;
  onChance: (row: ChanceRow) => void;
  /** Server-side paging (the acceptance query); absent for the favourites, which arrive whole. */
  paging?: OptionsPaging;
}

/**
 * The options (school + major lines) with the student's probability, one server page at a time (virtualised, so a
 * long favourites list renders only the visible rows). Tier colour marks each row's left edge and its probability.
 */
export function OptionsTable({ rows, loading, height, inPlan, liked, canAdd, onAdd, onToggleLike, onSchool, onMajor, onChance, paging }: OptionsTableProps) {
  // The exam year the probabilities are for (the same for every row of one answer).
  const target = rows.length ? targetYearOf(rows[0]) : null;
  const columns: TableProps<ChanceRow>['columns'] = [
    {
      title: '院校 · 专业',
      key: 'option',
      render: (_v, r) => (
        <div style={{ borderLeft: `3px solid ${r.tier ? TIER_STYLE[r.tier].color : '#d9d9d9'}`, paddingLeft: 8, minWidth: 0 }}>
          <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
            <Typography.Link strong ellipsis onClick={() => onSchool(r)} style={{ flex: '0 1 auto', minWidth: 0 }} title={`${r.schoolName}（院校详情）`}>
              {r.schoolName}
            </Typography.Link>
            {r.tags.map((t) => (
              <Tag key={t} bordered={false} color="gold" style={{ marginInlineEnd: 0, fontSize: 11, lineHeight: '16px', padding: '0 3px', flex: 'none' }}>
                {t}
              </Tag>
            ))}
            <OwnershipTag ownership={r.ownership} />
          </div>
          <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
            {r.majorName ? (
              <Typography.Link
                ellipsis
                onClick={() => onMajor(r)}
                style={{ flex: '0 1 auto', minWidth: 0, fontSize: 12, color: 'rgba(0,0,0,.65)' }}
                title={`${r.majorName}${r.majorCode ? `（专业代号 ${r.majorCode}）` : ''}（专业详情）`}
              >
                {r.majorName}
              </Typography.Link>
            ) : (
              <span style={{ fontSize: 12, color: '#999' }}>院校专业组</span>
            )}
            <PlanTags tags={r.planTags} />
            <LineFlagTags row={{ ...r, year: figureYear(r) }} />
            <SubjectReq subjectReq={r.subjectReq} />
          </div>
        </div>
      ),
    },
    {
      title: '所在地',
      key: 'place',
      width: 72,
      render: (_v, r) => (
        <div style={{ fontSize: 12, lineHeight: 1.5, color: r.province ? undefined : '#999' }}>
          <div>{r.province ?? '未知'}</div>
          {r.city && r.city !== r.province ? <div style={{ color: '#888' }}>{r.city}</div> : null}
        </div>
      ),
    },
    {
      title: '最低分/位次',
      key: 'line',
      width: 150,
      render: (_v, r) => <LineCell row={r} />,
    },
    {
      title: target ? `${target}录取率` : '录取率',
      dataIndex: 'probability',
      width: 88,
      render: (p: number | null, r) => (
        <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => onChance(r)} aria-label={`录取率 ${r.schoolName} ${r.majorName ?? ''}`}>
            <Probability probability={p} text={r.probabilityText} tier={r.tier} />
          </Button>
        </div>
      ),
    },
    { title: '梯度', dataIndex: 'tier', width: 52, align: 'center', render: (t) => <TierTag tier={t} /> },
    {
      title: '操作',
      key: 'actions',
      width: 96,
      render: (_v, r) => {
        const on = liked(r);
        return (
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 2 }}>
            <Tooltip title={on ? '取消收藏' : '收藏'}>
              <Button
                type="text"
                size="small"
                aria-label={on ? `取消收藏 ${r.schoolName}` : `收藏 ${r.schoolName}`}
                aria-pressed={on}
                icon={on ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
                onClick={() => onToggleLike(r)}
              />
            </Tooltip>
            {inPlan.has(r.lineId) ? (
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                已加入
              </Typography.Text>
            ) : (
              <Button size="small" type="primary" ghost disabled={!canAdd} onClick={() => onAdd(r)} aria-label={`加入 ${r.schoolName} ${r.majorName ?? ''}`}>
                加入
              </Button>
            )}
          </span>
        );
      },
    },
  ];
  return (
    <Table<ChanceRow>
      className="zy-options-table"
      rowKey="lineId"
      size="small"
      virtual
      loading={{ spinning: loading, tip: '正在计算录取概率...' }}
      columns={columns}
      dataSource={rows}
      pagination={paging ? optionsPagination(paging) : false}
      scroll={{ x: 720, y: height }}
      locale={{ emptyText: '没有符合条件的志愿，试试放宽筛选条件' }}
    />
  );
}

/**
 * The line's figures with their year ("2026 · 581分 · 29,348名"), the estimate for the exam year, and every history
 * year (each with its own year) on hover.
 */
function LineCell({ row }: { row: ChanceRow }) {
  const year = figureYear(row);
  const estimate = estimateFigure(targetYearOf(row), row.estimatedRank);
  // Shown on hover when there is more than the year above: every year of the same programme, each with its year.
  const history = row.years && row.years.length > 1 ? row.years : [];
  const cell = (
    <div style={{ fontVariantNumeric: 'tabular-nums', lineHeight: 1.4, fontSize: 12 }}>
      <div style={{ whiteSpace: 'nowrap' }}>{lineFigures({ year, minScore: row.minScore, minRank: row.minRank })}</div>
      {estimate ? <div style={{ color: '#888', whiteSpace: 'nowrap' }}>{estimate}</div> : null}
    </div>
  );
  if (!history.length) return cell;
  return (
    <Tooltip
      title={
        <div>
          <div>历年录取（同一专业）：</div>
          {history.map((y) => (
            <div key={y.year}>{historyFigures(y, row.majorName)}</div>
          ))}
        </div>
      }
    >
      {cell}
    </Tooltip>
  );
}
