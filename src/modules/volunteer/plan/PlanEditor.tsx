import {
  BarChartOutlined,
  FileExcelOutlined,
  FilePdfOutlined,
  HistoryOutlined,
  RollbackOutlined,
  SaveOutlined,
  SendOutlined,
  ShareAltOutlined,
  ThunderboltOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import type { ChanceQuery } from '@common/volunteer/chances';
import { Alert, App, Button, Card, Dropdown, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { type ChanceRow, downloadPlanExcel, downloadPlanPdf, type FilterChoices, type StudentInfo } from '@/api/volunteer';
import { useAccess } from '@/components/Access';
import { targetYearOf } from '../shared/format';
import { PlanHistoryDialog } from '../shared/PlanHistoryDialog';
import { PlanStatusTag } from '../shared/PlanStatusTag';
import { RetryAlert } from '../shared/RetryAlert';
import { TIER_STYLE } from '../shared/tiers';
import { AutofillDialog } from './AutofillDialog';
import { groupReasons } from './groupReasons';
import { PlanWarnings } from './PlanWarnings';
import { type EditorItem, needsObey, type PlanLimits, simulable, staleItems, tierCounts, warnedPositions } from './planModel';
import { ReportDialog } from './ReportDialog';
import { ShareDialog } from './ShareDialog';
import { SortablePlanList } from './SortablePlanList';
import { SubmissionHistoryDialog } from './SubmissionHistoryDialog';
import type { EditorSimulation, PlanEditorState } from './usePlanEditor';

export interface PlanEditorProps {
  editor: PlanEditorState;
  student: StudentInfo;
  limits: PlanLimits;
  /** Current filters of the options table (智能填报 can apply them). */
  filters: ChanceQuery;
  /** The filling page's filter choices (智能填报 offers their regions); null for a 院校专业组 province. */
  choices?: FilterChoices | null;
  listHeight: number;
  onOpenChance: (item: EditorItem) => void;
}

type Dialog = null | 'autofill' | 'report' | 'share' | 'submissions' | 'history';

/**
 * 志愿表: the ordered plan with drag reordering, limits and warnings, and the plan's actions — 保存 (with the version),
 * 提交审核 / 撤回, 智能填报, 方案报告, 分享, PDF / Excel, 提交记录 and 操作记录.
 */
export function PlanEditor({ editor, student, limits, filters, choices = null, listHeight, onOpenChance }: PlanEditorProps) {
  const { modal } = App.useApp();
  const { can } = useAccess();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [exporting, setExporting] = useState<null | 'pdf' | 'excel'>(null);
  const counts = tierCounts(editor.items);
  const canSave = can('volunteer:plan:save');
  const canSubmit = can('volunteer:plan:submit');
  const hasSavedPlan = editor.status !== 'none';

  const confirmSubmit = () =>
    modal.confirm({
      title: '确认提示',
      content: `确定将 ${student.name} 的 ${editor.items.length} 个志愿提交审核吗？提交后方案只读，审核通过前可以撤回。`,
      okText: '提交审核',
      cancelText: '取消',
      onOk: () => editor.submit(),
    });
  const confirmUnsubmit = () =>
    modal.confirm({
      title: '确认提示',
      content: '撤回后方案回到草稿，可以继续修改，修改后需要重新提交审核。确定撤回吗？',
      okText: '撤回',
      cancelText: '取消',
      onOk: () => editor.unsubmit(),
    });
  const confirmOverwrite = () =>
    modal.confirm({
      title: '确认提示',
      content: '服务器上的方案已被他人修改。用你的志愿表覆盖后，对方的修改将丢失。确定覆盖吗？',
      okText: '覆盖保存',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => editor.save(editor.stale?.currentVersion ?? editor.version),
    });

  const exportAs = async (kind: 'pdf' | 'excel') => {
    setExporting(kind);
    try {
      await (kind === 'pdf' ? downloadPlanPdf : downloadPlanExcel)(student.studentId, student.name);
    } catch {
      // download() has shown the reason
    } finally {
      setExporting(null);
    }
  };

  const applyAutofill = (rows: ChanceRow[], replace: boolean) => {
    const { added, skipped } = editor.addMany(rows, replace);
    modal.info({
      title: '智能填报结果',
      content: (
        <div>
          <p>
            已{replace ? '替换志愿表，写入' : '追加'} {added} 个志愿，请检查顺序后点「保存」。
          </p>
          {skipped.length ? (
            <p style={{ color: '#d46b08' }}>
              跳过 {skipped.length} 个：{groupReasons(skipped).slice(0, 3).join('；')}
            </p>
          ) : null}
        </div>
      ),
    });
  };

  const review = editor.summary;
  const lapsed = staleItems(editor.items);
  // The exam year the probabilities are for (a 失效 entry's figures are of an older year: not asked).
  const current = editor.items.find((i) => !i.stale && (i.targetYear != null || i.year != null));
  const target = current ? targetYearOf(current) : null;
  const lapsedAt = lapsed.map((i) => editor.items.indexOf(i) + 1);
  return (
    <Card
      size="small"
      className="zy-plan-editor"
      title={
        <Space size={8} wrap>
          <UnorderedListOutlined />
          <span>志愿表</span>
          <Typography.Text type={editor.items.length > limits.slotLimit ? 'danger' : 'secondary'} style={{ fontWeight: 400 }} aria-label="志愿数">
            {editor.items.length}/{limits.slotLimit}
          </Typography.Text>
          <PlanStatusTag status={editor.status} name={review?.statusName} />
          {editor.dirty ? <Tag color="orange">未保存</Tag> : null}
        </Space>
      }
      extra={
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          版本 {editor.version}
        </Typography.Text>
      }
      styles={{ body: { padding: 8 } }}
    >
      <Space wrap size={[4, 6]} style={{ marginBottom: 8 }} className="zy-plan-toolbar">
        {canSave ? (
          <Button
            size="small"
            type="primary"
            icon={<SaveOutlined />}
            loading={editor.busy === 'save'}
            disabled={editor.readOnly || !editor.dirty}
            onClick={() => editor.save()}
          >
            保存
          </Button>
        ) : null}
        {canSubmit &&
          (editor.status === 'submitted' ? (
            <Button size="small" icon={<RollbackOutlined />} loading={editor.busy === 'unsubmit'} onClick={confirmUnsubmit}>
              撤回
            </Button>
          ) : (
            <Tooltip title={editor.status === 'rejected' ? '被驳回的方案需先修改并保存' : editor.dirty ? '请先保存' : ''}>
              <Button
                size="small"
                icon={<SendOutlined />}
                loading={editor.busy === 'submit'}
                disabled={editor.readOnly || editor.dirty || editor.status !== 'draft' || editor.items.length === 0}
                onClick={confirmSubmit}
              >
                提交审核
              </Button>
            </Tooltip>
          ))}
        {/* 智能填报 proposes single-major lines (山东); a 院校专业组 plan is filled group by group. */}
        {canSave && !needsObey(limits) ? (
          <Button size="small" icon={<ThunderboltOutlined />} disabled={editor.readOnly} onClick={() => setDialog('autofill')}>
            智能填报
          </Button>
        ) : null}
        <Button size="small" icon={<BarChartOutlined />} disabled={!hasSavedPlan} onClick={() => setDialog('report')}>
          方案报告
        </Button>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'pdf', icon: <FilePdfOutlined />, label: '导出 PDF', disabled: !hasSavedPlan },
              { key: 'excel', icon: <FileExcelOutlined />, label: '导出 Excel', disabled: !hasSavedPlan },
              ...(canSave ? [{ key: 'share', icon: <ShareAltOutlined />, label: '分享链接', disabled: !hasSavedPlan }] : []),
              { type: 'divider' as const },
              { key: 'submissions', icon: <HistoryOutlined />, label: '提交记录' },
              { key: 'history', icon: <HistoryOutlined />, label: '操作记录' },
            ],
            onClick: ({ key }) => {
              if (key === 'pdf' || key === 'excel') exportAs(key);
              else setDialog(key as Dialog);
            },
          }}
        >
          <Button size="small" loading={exporting !== null}>
            {exporting ? '正在导出...' : '更多'}
          </Button>
        </Dropdown>
      </Space>

      {simulable(editor.items, limits) ? <SimulationLine simulation={editor.simulation} onRetry={editor.resimulate} /> : null}

      <RetryAlert error={editor.loadError} title="志愿方案加载失败" onRetry={editor.load} style={{ marginBottom: 8 }} />
      {editor.stale ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={editor.dismissStale}
          style={{ marginBottom: 8 }}
          message={editor.stale.message}
          description="你的修改仍保留在下方。可以重新加载服务器上的方案（放弃本地修改），或确认后用你的志愿表覆盖。"
          action={
            <Space direction="vertical" size={4}>
              <Button size="small" onClick={editor.load}>
                重新加载
              </Button>
              <Button size="small" danger onClick={confirmOverwrite}>
                覆盖保存
              </Button>
            </Space>
          }
        />
      ) : null}
      {editor.refusal ? (
        <Alert
          type="error"
          showIcon
          closable
          onClose={editor.dismissRefusal}
          style={{ marginBottom: 8 }}
          message={editor.refusal}
          description="志愿表未保存，你的修改仍保留在下方。请按提示调整后再保存。"
        />
      ) : null}
      {lapsed.length ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          message={`${lapsed.length} 个志愿已失效（第 ${lapsedAt.join('、')} 位）`}
          description={
            editor.readOnly
              ? '这些志愿已不在当前招生目录中（已停招或更名）；方案当前只读，可以修改时请删除并替换。'
              : '这些志愿已不在当前招生目录中（已停招或更名），保存和提交会被拒绝：请删除，并从左侧重新选择替换。'
          }
        />
      ) : null}
      {editor.status === 'submitted' ? (
        <Alert type="info" showIcon style={{ marginBottom: 8 }} message="方案已提交审核，等待审批，当前只读。如需修改，请先「撤回」。" />
      ) : null}
      {editor.status === 'approved' ? (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 8 }}
          message={`方案已审批通过${review?.reviewByName ? `（${review.reviewByName}）` : ''}，不能再修改。`}
          description={review?.reviewComment ? `审批意见：${review.reviewComment}` : undefined}
        />
      ) : null}
      {editor.status === 'rejected' ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          message="方案已被驳回，请按审批意见修改并保存后再提交。"
          description={review?.reviewComment ? `驳回意见：${review.reviewComment}` : undefined}
        />
      ) : null}
      {editor.dirty && !editor.readOnly ? (
        <div style={{ marginBottom: 8, fontSize: 12, color: '#d46b08' }}>
          有未保存的修改。
          <Typography.Link style={{ fontSize: 12 }} onClick={editor.revert}>
            放弃修改
          </Typography.Link>
        </div>
      ) : null}

      <PlanWarnings warnings={editor.warnings} />

      <div style={{ display: 'flex', gap: 12, fontSize: 12, margin: '0 0 6px 4px' }} className="zy-plan-tally">
        {(['冲', '稳', '保'] as const).map((t) => (
          <span key={t} style={{ color: TIER_STYLE[t].color }}>
            {t} {counts[t]}
          </span>
        ))}
        {counts.none ? <span style={{ color: '#999' }}>无法估算 {counts.none}</span> : null}
        {target != null ? <span style={{ color: '#999', marginLeft: 'auto', marginRight: 8 }}>录取概率为{target}年的估计</span> : null}
      </div>

      <Spin spinning={editor.loading} tip="正在加载志愿方案...">
        <div style={{ maxHeight: listHeight, minHeight: 120, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6 }}>
          <SortablePlanList
            items={editor.items}
            readOnly={editor.readOnly || !canSave}
            warned={warnedPositions(editor.warnings)}
            showObey={needsObey(limits)}
            landing={simulable(editor.items, limits) && (editor.simulation.view || editor.simulation.pending) ? editor.simulation.byLine : undefined}
            landingPending={editor.simulation.pending}
            onMove={editor.move}
            onRemove={editor.remove}
            onObey={editor.obey}
            onOpenChance={onOpenChance}
          />
        </div>
      </Spin>

      <AutofillDialog
        open={dialog === 'autofill'}
        studentId={student.studentId}
        slotLimit={limits.slotLimit}
        filters={filters}
        readOnly={editor.readOnly}
        currentCount={editor.items.length}
        choices={choices}
        currentItems={editor.items}
        onApply={applyAutofill}
        onClose={() => setDialog(null)}
      />
      <ReportDialog open={dialog === 'report'} studentId={student.studentId} studentName={student.name} dirty={editor.dirty} onClose={() => setDialog(null)} />
      <ShareDialog open={dialog === 'share'} studentId={student.studentId} studentName={student.name} onClose={() => setDialog(null)} />
      <SubmissionHistoryDialog open={dialog === 'submissions'} studentId={student.studentId} studentName={student.name} onClose={() => setDialog(null)} />
      <PlanHistoryDialog open={dialog === 'history'} studentId={student.studentId} studentName={student.name} onClose={() => setDialog(null)} />
    </Card>
  );
}

const share = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/**
 * The list as edited, simulated: 「2027年模拟：被录取 99.6% · 滑档 0.4% · 落在 冲 … / 稳 … / 保 …」 for the exam year the
 * answer names. Each line's own chance says little about the plan — the order decides where the student lands — so
 * this is what the expert watches while reordering. Older figures stay, faded, while a newer list is simulated.
 */
function SimulationLine({ simulation: s, onRetry }: { simulation: EditorSimulation; onRetry: () => void }) {
  const v = s.view;
  return (
    <div
      data-testid="plan-simulation-summary"
      aria-live="polite"
      title={v?.text}
      style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', columnGap: 8, fontSize: 12, margin: '0 0 8px 4px', minHeight: 20 }}
    >
      {v ? (
        <span style={{ opacity: s.pending ? 0.5 : 1, fontVariantNumeric: 'tabular-nums' }}>
          <strong>{v.year}年模拟</strong>：被录取 {share(v.admitted)} ·{' '}
          <span style={{ color: v.slide >= 0.01 ? '#cf1322' : undefined, fontWeight: v.slide >= 0.01 ? 600 : undefined }}>滑档 {share(v.slide)}</span> · 落在{' '}
          {(['冲', '稳', '保'] as const).map((t, n) => (
            <span key={t} style={{ color: TIER_STYLE[t].color }}>
              {n ? ' / ' : ''}
              {t} {share(v.byTier[t])}
            </span>
          ))}
        </span>
      ) : null}
      {s.pending ? (
        <span style={{ color: '#999' }}>
          <Spin size="small" style={{ marginRight: 4 }} />
          模拟中…
        </span>
      ) : null}
      {!s.pending && !v && s.message ? <span style={{ color: '#999' }}>{s.message}</span> : null}
      {!s.pending && s.error ? (
        <span style={{ color: '#d46b08' }}>
          整体模拟失败：{s.error}{' '}
          <Typography.Link style={{ fontSize: 12 }} onClick={onRetry}>
            重试
          </Typography.Link>
        </span>
      ) : null}
    </div>
  );
}
