import { Alert, App, Card, Col, Input, Row, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { GroupOptionRow, ProvinceRules, StudentInfo } from '@/api/volunteer';
import { useDevice } from '@/layout/useDevice';
import { PlanEditor } from '../../plan/PlanEditor';
import type { EditorItem, PlanLimits } from '../../plan/planModel';
import { usePlanEditor } from '../../plan/usePlanEditor';
import { formatRank } from '../../shared/format';
import { RetryAlert } from '../../shared/RetryAlert';
import { probabilityLabel, TierLegend } from '../../shared/tiers';
import { useWindowHeight } from '../../shared/useWindowHeight';
import { TierBar } from '../TierBar';
import { useBoardRefresh } from '../useBoardRefresh';
import { GroupTable } from './GroupTable';
import { GROUP_PAGE_SIZES, type GroupQueryState, useGroupOptions } from './useGroupOptions';

export interface GroupFillingBoardProps {
  student: StudentInfo;
  rules: ProvinceRules;
  /** Bumped when the student's score changes: probabilities are recomputed. */
  refreshKey: number;
}

/** The spread provenance the server sends when a province has one year of lines (groups/spread.ts). */
const BORROWED = 'shandong-one-year';

/**
 * Filling by 院校专业组 (3+1+2 provinces, 湖北 and 广东): the groups of the student's track whose 再选 requirement
 * they meet, with tier tabs and a school search, beside the plan editor. A group goes into the plan with its majors
 * (up to the province's limit) and 服从调剂; the server checks every limit again on save.
 */
export function GroupFillingBoard({ student, rules, refreshKey }: GroupFillingBoardProps) {
  const { modal } = App.useApp();
  const mobile = useDevice() === 'mobile';
  const height = useWindowHeight();
  const limits: PlanLimits = useMemo(
    () => ({ province: rules.province, slotLimit: rules.slotLimit, groupMajorLimit: rules.groupMajorLimit, zyType: rules.zyType }),
    [rules],
  );
  const [query, setQuery] = useState<GroupQueryState>({ tier: 'all', keyword: '' });
  const [expanded, setExpanded] = useState<number[]>([]);
  const data = useGroupOptions(student.studentId, query);
  const editor = usePlanEditor(student.studentId, limits);
  useBoardRefresh(editor, data.reload, refreshKey);

  const r = data.result;
  const counts = r?.tierCounts ?? { 冲: 0, 稳: 0, 保: 0 };
  const borrowed = r?.spreadSource === BORROWED ? r.spreadNote : null;
  const byLine = useMemo(() => new Map(editor.items.map((i) => [i.lineId, i])), [editor.items]);
  const entryOf = (lineId: number) => {
    const i = byLine.get(lineId);
    return i ? { majors: i.majors ?? [], obey: i.obey ?? true } : null;
  };

  const submit = (row: GroupOptionRow, majors: string[], obey: boolean) => {
    const existing = byLine.get(row.lineId);
    if (existing) {
      editor.majors(row.lineId, majors);
      if ((existing.obey ?? true) !== obey) editor.obey(existing, obey);
      setExpanded((ids) => ids.filter((id) => id !== row.lineId));
      return;
    }
    const item: EditorItem = {
      lineId: row.lineId,
      schoolCode: row.schoolCode,
      schoolName: row.schoolName,
      majorName: majors.length ? majors.join('、') : null,
      groupCode: row.groupCode,
      province: row.province,
      city: row.city,
      tags: row.tags,
      minScore: row.minScore,
      minRank: row.minRank,
      tier: row.tier,
      probability: row.probability,
      probabilityText: row.probabilityText,
      obey,
      majors,
    };
    if (editor.add(item)) setExpanded((ids) => ids.filter((id) => id !== row.lineId));
  };

  // The plan's 录取率 link: the group's figures and where the spread comes from (the Shandong dialog has no groups).
  const openItemChance = (item: EditorItem) =>
    modal.info({
      title: `${item.schoolName}${item.groupCode ? ` 第${item.groupCode}组` : ''}`,
      width: 480,
      content: (
        <div style={{ fontSize: 13, lineHeight: 1.8 }}>
          <div>
            {r?.year ?? ''}年投档最低分 {item.minScore ?? '--'}，最低位次 {formatRank(item.minRank)}；考生位次 {formatRank(student.rank)}
          </div>
          <div>
            录取概率 {probabilityLabel(item.probability, item.probabilityText)}
            {item.tier ? `，${item.tier}` : ''}
          </div>
          {r?.spreadNote ? <div style={{ color: '#888', fontSize: 12 }}>{r.spreadNote}</div> : null}
        </div>
      ),
    });

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={14}>
        <Card size="small" title="可选院校专业组" extra={<TierLegend />} styles={{ body: { padding: '8px 12px' } }}>
          <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, marginBottom: 8 }}>
            <Input.Search
              allowClear
              placeholder="搜索院校名称"
              aria-label="搜索院校名称"
              style={{ width: 220 }}
              maxLength={50}
              onSearch={(v) => setQuery((q) => ({ ...q, keyword: v.trim() }))}
            />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r ? `${r.track} · 再选 ${r.reselect.join('、') || '--'} · 只显示选科要求相符的专业组` : ''}
              {r?.batchLine != null ? ` · 本科线 ${r.batchLine} 分` : ''}
            </Typography.Text>
          </div>
          <TierBar value={query.tier} onChange={(tier) => setQuery((q) => ({ ...q, tier }))} counts={counts} loading={data.loading} total={r?.total ?? 0} />
          <RetryAlert
            error={data.error}
            title="院校专业组查询失败"
            description="请检查网络后重试；如果学生还没有选考科目或分数，请先编辑学生信息。"
            onRetry={data.reload}
            style={{ marginBottom: 8 }}
          />
          {r?.message ? <Alert type={r.belowBatchLine ? 'warning' : 'info'} showIcon style={{ marginBottom: 8 }} message={r.message} /> : null}
          {borrowed && !r?.belowBatchLine ? (
            <Alert type="info" showIcon style={{ marginBottom: 8, fontSize: 12, padding: '4px 12px' }} message={borrowed} />
          ) : null}
          <GroupTable
            rows={r?.rows ?? []}
            loading={data.loading}
            height={Math.max(320, height - (mobile ? 300 : 520))}
            majorLimit={rules.groupMajorLimit}
            borrowedSpread={borrowed}
            entryOf={entryOf}
            canAdd={!editor.readOnly}
            suggestions={student.preferences?.majors ?? []}
            expanded={expanded}
            onExpand={setExpanded}
            onSubmit={submit}
            paging={{ pageNum: data.pageNum, pageSize: data.pageSize, total: r?.total ?? 0, pageSizes: GROUP_PAGE_SIZES, onChange: data.changePage }}
          />
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        <div style={{ position: mobile ? undefined : 'sticky', top: 12 }}>
          <PlanEditor
            editor={editor}
            student={student}
            limits={limits}
            filters={{ studentId: student.studentId }}
            listHeight={Math.max(320, height - 360)}
            onOpenChance={openItemChance}
          />
        </div>
      </Col>
    </Row>
  );
}
