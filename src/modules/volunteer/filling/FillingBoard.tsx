import { Alert, Card, Col, Row, Space, Switch } from 'antd';
import { useMemo, useState } from 'react';
import type { ChanceRow, FilterChoices, ProvinceRules, StudentInfo } from '@/api/volunteer';
import { useDevice } from '@/layout/useDevice';
import { PlanEditor } from '../plan/PlanEditor';
import type { EditorItem, PlanLimits } from '../plan/planModel';
import { usePlanEditor } from '../plan/usePlanEditor';
import { figureYear, rulesYears } from '../shared/format';
import { RetryAlert } from '../shared/RetryAlert';
import { TierLegend } from '../shared/tiers';
import { useWindowHeight } from '../shared/useWindowHeight';
import { ChanceDialog, type ChanceTarget } from './ChanceDialog';
import { FillingFilters } from './FillingFilters';
import { buildChanceQuery, DEFAULT_FILTERS, type FillingFilterValues } from './filterQuery';
import { MajorDialog } from './MajorDialog';
import { OptionsTable } from './OptionsTable';
import { SchoolDialog } from './SchoolDialog';
import { TierBar } from './TierBar';
import { useBoardRefresh } from './useBoardRefresh';
import { PAGE_SIZES, useChanceRows } from './useChanceRows';

export interface FillingBoardProps {
  student: StudentInfo;
  rules: ProvinceRules;
  choices: FilterChoices | null;
  /** Bumped when the student's score changes: tiers are recomputed. */
  refreshKey: number;
}

/** The options table (filters, tier tabs, favourites) beside the plan editor, and the detail dialogs. */
export function FillingBoard({ student, rules, choices, refreshKey }: FillingBoardProps) {
  const mobile = useDevice() === 'mobile';
  const height = useWindowHeight();
  const limits: PlanLimits = useMemo(
    () => ({ province: rules.province, slotLimit: rules.slotLimit, groupMajorLimit: rules.groupMajorLimit, zyType: rules.zyType }),
    [rules],
  );
  const [filters, setFilters] = useState<FillingFilterValues>(DEFAULT_FILTERS);
  const [likedOnly, setLikedOnly] = useState(false);
  const data = useChanceRows(student.studentId, filters, likedOnly);
  const editor = usePlanEditor(student.studentId, limits);
  const [school, setSchool] = useState<string | null>(null);
  const [major, setMajor] = useState<string | null>(null);
  const [chance, setChance] = useState<(ChanceTarget & Partial<ChanceRow>) | null>(null);
  useBoardRefresh(editor, data.reload, refreshKey);

  const canAdd = !editor.readOnly;
  const query = buildChanceQuery(student.studentId, filters);
  const subjectDataAvailable = !data.notes.some((n) => n.includes('未包含选科要求'));
  const tableHeight = Math.max(320, height - (mobile ? 300 : 560));
  const openChance = (row: ChanceRow) => setChance(row);
  const openItemChance = (item: EditorItem) =>
    setChance({ lineId: item.lineId, schoolCode: item.schoolCode, schoolName: item.schoolName ?? item.schoolCode, majorName: item.majorName });
  // The catalogue the options come from: the answer says it (rows' year, the student summary), else the rules.
  const catalogueYear = (data.rows.length ? figureYear(data.rows[0]) : null) ?? data.student?.year ?? rulesYears(rules).year;

  return (
    <>
      <Row gutter={[12, 12]}>
        <Col xs={24} xl={14}>
          <Card
            size="small"
            title={catalogueYear != null ? `可选志愿（${catalogueYear}年招生目录）` : '可选志愿'}
            extra={<TierLegend />}
            styles={{ body: { padding: '8px 12px' } }}
          >
            <FillingFilters
              choices={choices}
              subjectNames={student.subjectNames}
              subjectDataAvailable={subjectDataAvailable}
              onChange={(f) => setFilters((prev) => ({ ...f, tier: prev.tier }))}
            />
            <TierBar
              value={filters.tier}
              onChange={(tier) => setFilters((f) => ({ ...f, tier }))}
              counts={data.tierCounts}
              loading={data.loading}
              total={data.total}
            >
              <Space size={4}>
                <Switch size="small" checked={likedOnly} onChange={setLikedOnly} aria-label="只看收藏" />
                <span>只看收藏</span>
              </Space>
            </TierBar>
            <RetryAlert
              error={data.error}
              title="志愿查询失败"
              description="请检查网络后重试；如果学生还没有分数，请先编辑学生信息填写分数。"
              onRetry={data.reload}
              style={{ marginBottom: 8 }}
            />
            {data.notes.length ? (
              <Alert type="info" showIcon style={{ marginBottom: 8, fontSize: 12, padding: '4px 12px' }} message={data.notes.join('；')} />
            ) : null}
            <OptionsTable
              rows={data.rows}
              loading={data.loading}
              height={tableHeight}
              inPlan={editor.inPlan}
              liked={data.liked}
              canAdd={canAdd}
              onAdd={editor.add}
              onToggleLike={data.toggleLike}
              onSchool={(r) => setSchool(r.schoolCode)}
              onMajor={(r) => r.majorName && setMajor(r.majorName)}
              onChance={openChance}
              paging={
                data.paged ? { pageNum: data.pageNum, pageSize: data.pageSize, total: data.total, pageSizes: PAGE_SIZES, onChange: data.changePage } : undefined
              }
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <div style={{ position: mobile ? undefined : 'sticky', top: 12 }}>
            <PlanEditor
              editor={editor}
              student={student}
              limits={limits}
              filters={query}
              choices={choices}
              listHeight={Math.max(320, height - 360)}
              onOpenChance={openItemChance}
            />
          </div>
        </Col>
      </Row>
      <SchoolDialog
        schoolCode={school}
        studentId={student.studentId}
        inPlan={editor.inPlan}
        canAdd={canAdd}
        onAdd={editor.add}
        onChance={openChance}
        onClose={() => setSchool(null)}
      />
      <MajorDialog
        majorName={major}
        studentId={student.studentId}
        inPlan={editor.inPlan}
        canAdd={canAdd}
        onAdd={editor.add}
        onChance={openChance}
        onClose={() => setMajor(null)}
      />
      <ChanceDialog
        target={chance}
        studentId={student.studentId}
        studentScore={student.score}
        studentRank={student.rank}
        canAdd={canAdd && chance != null && !editor.inPlan.has(chance.lineId)}
        onAdd={(row) => {
          if (editor.add(row)) setChance(null);
        }}
        onClose={() => setChance(null)}
      />
    </>
  );
}
