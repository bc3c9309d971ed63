import type { TableProps } from 'antd';
import type { ChanceRow } from '@/api/volunteer';
import { formatRank } from './format';
import { Probability, TierTag } from './tiers';

/**
 * The columns of a plain list of options (提前批志愿, the best options under a 专业推荐 row): 院校, 专业, the line's
 * figures, 录取率 and 梯度. `ellipsis` for a fixed-height virtual table, whose rows must stay one line high.
 */
export function chanceColumns(ellipsis = false): TableProps<ChanceRow>['columns'] {
  return [
    { title: '院校', dataIndex: 'schoolName', ellipsis },
    { title: '专业', dataIndex: 'majorName', ellipsis },
    { title: '最低分', dataIndex: 'minScore', width: 80 },
    { title: '最低位次', dataIndex: 'minRank', width: 100, render: formatRank },
    { title: '录取率', dataIndex: 'probability', width: 90, render: (p, r) => <Probability probability={p} text={r.probabilityText} tier={r.tier} /> },
    { title: '梯度', dataIndex: 'tier', width: 64, render: (t) => <TierTag tier={t} /> },
  ];
}
