import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined } from '@ant-design/icons';
import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Empty, Switch, Tooltip } from 'antd';
import { type CSSProperties, useCallback, useState } from 'react';
import { lineFigures } from '../shared/format';
import { StaleTag } from '../shared/lineTags';
import { Probability, TIER_STYLE, TierTag } from '../shared/tiers';
import type { EditorItem } from './planModel';
import type { SimulatedChoice } from './usePlanEditor';

export interface SortablePlanListProps {
  items: readonly EditorItem[];
  readOnly: boolean;
  /** 0-based positions named by a warning: highlighted. */
  warned: ReadonlySet<number>;
  /** Show 服从调剂 on the first entry of each 院校专业组. */
  showObey: boolean;
  /**
   * The whole-plan simulation by line (落点: the share of simulated years the student lands at that choice); absent
   * when the plan is not simulated. `landingPending`: a newer list waits for its answer, the figures shown are older.
   */
  landing?: ReadonlyMap<number, SimulatedChoice>;
  landingPending?: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: (lineId: number) => void;
  onObey: (item: EditorItem, obey: boolean) => void;
  onOpenChance?: (item: EditorItem) => void;
}

/**
 * The list width from which a choice fits on one line with its codes and figures; narrower (the editor beside the
 * options table on a 1366–1600 px screen), those go to a second, small line so school and major stay readable.
 */
export const ONE_LINE_MIN_PX = 700;

/**
 * The ordered plan, one line per choice (two short ones when the editor is narrow) so that all 96 stay usable: drag by the handle (mouse, touch or keyboard:
 * space, arrows, space), or 上移/下移. Not virtualised: 96 rows of this size render and drag without trouble, and a
 * virtual list would break dragging a row past the visible ones.
 */
export function SortablePlanList({
  items,
  readOnly,
  warned,
  showObey,
  landing,
  landingPending,
  onMove,
  onRemove,
  onObey,
  onOpenChance,
}: SortablePlanListProps) {
  // Measured, not guessed from the screen: the editor's column width depends on the page around it.
  const [oneLine, setOneLine] = useState(true);
  const measured = useCallback((el: HTMLOListElement | null) => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setOneLine(entry.contentRect.width >= ONE_LINE_MIN_PX));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = items.map((i) => i.lineId);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(ids.indexOf(Number(active.id)), ids.indexOf(Number(over.id)));
  };
  if (items.length === 0) {
    // A 院校专业组 plan (showObey) is filled group by group: 选专业 in the group list, no 智能填报.
    const how = showObey ? '在左侧院校专业组点「选专业」后加入' : '在左侧表格点「加入」，或使用「智能填报」';
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`志愿表还是空的：${how}`} />;
  }

  const firstOfGroup = new Set<number>();
  const seen = new Set<string>();
  items.forEach((i, n) => {
    const key = `${i.schoolCode}|${i.groupCode ?? ''}`;
    if (!seen.has(key)) firstOfGroup.add(n);
    seen.add(key);
  });

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol ref={measured} className="zy-plan-list" aria-label="志愿表" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item, n) => (
            <PlanRow
              key={item.lineId}
              item={item}
              index={n}
              last={n === items.length - 1}
              readOnly={readOnly}
              warned={warned.has(n)}
              obeyShown={showObey && firstOfGroup.has(n)}
              landing={landing ? (landing.get(item.lineId) ?? null) : undefined}
              landingPending={landingPending ?? false}
              oneLine={oneLine}
              onMove={onMove}
              onRemove={onRemove}
              onObey={onObey}
              onOpenChance={onOpenChance}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

/** A 院校专业组 entry: 第06组 and its majors (or that none is picked yet); null for a single-major entry. */
function groupLabel(item: EditorItem): string | null {
  if (!item.groupCode || item.majors === undefined) return null;
  return `第${item.groupCode}组 · ${item.majors.length ? item.majors.join('、') : '未选专业'}`;
}

const share = (p: number) => `${(Math.round(p * 1000) / 10).toFixed(1)}%`;

/** 院校代码 / 专业代号 (or 组), the city and the school's tags: what the expert checks against the paper form. */
function metaOf(item: EditorItem): string {
  const codes = [item.schoolCode, item.majorCode ?? (item.majors !== undefined ? item.groupCode : null)].filter(Boolean).join('/');
  return [codes, item.city, item.tags.slice(0, 3).join(' '), item.subjectReq ? `选科 ${item.subjectReq}` : null].filter(Boolean).join(' · ');
}

interface PlanRowProps {
  item: EditorItem;
  index: number;
  last: boolean;
  readOnly: boolean;
  warned: boolean;
  obeyShown: boolean;
  /** undefined: the plan is not simulated; null: this choice is not in the answer (cannot be estimated). */
  landing: SimulatedChoice | null | undefined;
  landingPending: boolean;
  /** Codes, city, tags and figures on the choice's line (wide list) or on a small second line. */
  oneLine: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: (lineId: number) => void;
  onObey: (item: EditorItem, obey: boolean) => void;
  onOpenChance?: (item: EditorItem) => void;
}

const UNSIMULATED = '无法模拟：该志愿已失效或缺少历年数据，模拟中按不录取计';

function PlanRow({ item, index, last, readOnly, warned, obeyShown, landing, landingPending, oneLine, onMove, onRemove, onObey, onOpenChance }: PlanRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.lineId, disabled: readOnly });
  const idle = landing?.idle ?? null;
  // Not in the answer yet, or not estimable (失效, no history): no share to show.
  const unsimulated = landing == null || !landing.simulated;
  const style: CSSProperties = {
    transform: CSS.Transform.toString(transform),
    transition,
    padding: '2px 6px',
    borderBottom: '1px solid #f0f0f0',
    borderLeft: `3px solid ${item.tier ? TIER_STYLE[item.tier].color : '#d9d9d9'}`,
    background: isDragging ? '#fafafa' : item.stale ? '#fff1f0' : warned ? '#fffbe6' : idle ? '#fafafa' : '#fff',
    boxShadow: isDragging ? '0 4px 12px rgba(0,0,0,.15)' : undefined,
    position: 'relative',
    zIndex: isDragging ? 2 : undefined,
  };
  // A choice the simulation calls idle (shadowed by the ones above it, or hopeless) is greyed, with the reason.
  const dim: CSSProperties | undefined = idle ? { opacity: 0.55 } : undefined;
  const name = [item.schoolName, item.majorName].filter(Boolean).join(' ');
  const figures = item.minScore != null || item.minRank != null ? lineFigures(item) : null;
  const meta = metaOf(item);
  const title = [name, meta, figures, idle ? `模拟：${idle}` : null].filter(Boolean).join(' · ');
  const small: CSSProperties = { fontSize: 12, color: '#888', whiteSpace: 'nowrap' };
  return (
    <li
      ref={setNodeRef}
      style={style}
      data-testid="plan-row"
      data-line-id={item.lineId}
      data-idle={idle ? 'true' : undefined}
      aria-label={`第${index + 1}个志愿 ${name}`}
    >
      {/* Never wrapped: the cells that can give up room shrink instead (the codes first, then the name). */}
      <div style={{ display: 'flex', alignItems: 'center', columnGap: 6, minHeight: 24, overflow: 'hidden' }}>
        {readOnly ? null : (
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`拖动排序 第${index + 1}个志愿`}
            className="zy-drag-handle"
            style={{ cursor: 'grab', border: 0, background: 'transparent', padding: 0, color: '#999', touchAction: 'none', flex: 'none' }}
          >
            <HolderOutlined />
          </button>
        )}
        <span style={{ width: 22, flex: 'none', textAlign: 'right', color: '#888', fontVariantNumeric: 'tabular-nums' }}>{index + 1}</span>
        {/* School and major take the room left; the codes, city and tags give theirs up first (all in the tooltip). */}
        <span title={title} style={{ flex: '1 1 120px', minWidth: 60, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', ...dim }}>
          <strong>{item.schoolName}</strong> <span style={{ fontSize: 12, color: '#666' }}>{groupLabel(item) ?? item.majorName ?? '院校专业组'}</span>
        </span>
        {item.stale ? <StaleTag reason={item.staleReason} /> : null}
        {oneLine && meta ? (
          <span style={{ ...small, flex: '0 100 auto', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', ...dim }}>{meta}</span>
        ) : null}
        {/* The figures are never cut off: the year beside them is what makes them readable. */}
        {oneLine && figures ? <span style={{ ...small, flex: 'none', fontVariantNumeric: 'tabular-nums', ...dim }}>{figures}</span> : null}
        {obeyShown ? (
          <Tooltip title="服从专业调剂（整组生效）">
            <Switch
              size="small"
              checked={item.obey ?? true}
              disabled={readOnly}
              onChange={(v) => onObey(item, v)}
              checkedChildren="服从"
              unCheckedChildren="不服从"
            />
          </Tooltip>
        ) : null}
        <span style={{ flex: 'none', ...dim }}>
          <TierTag tier={item.tier} />
        </span>
        <Button
          type="link"
          size="small"
          style={{ padding: 0, width: 52, flex: 'none', ...dim }}
          onClick={() => onOpenChance?.(item)}
          aria-label={`录取率 ${name}`}
        >
          <Probability probability={item.probability} text={item.probabilityText} tier={item.tier} />
        </Button>
        {landing === undefined ? null : (
          <span
            data-testid="plan-row-landing"
            title={unsimulated ? (landingPending ? '模拟中…' : UNSIMULATED) : (idle ?? '模拟中录取落在此志愿的年份占比')}
            style={{
              ...small,
              flex: 'none',
              width: 72,
              textAlign: 'right',
              fontVariantNumeric: 'tabular-nums',
              color: idle || unsimulated ? '#bbb' : '#555',
              opacity: landingPending ? 0.5 : 1,
            }}
          >
            落点 {unsimulated ? '—' : share(landing.landing)}
          </span>
        )}
        {readOnly ? null : (
          <span style={{ display: 'inline-flex', flex: 'none' }}>
            <Button
              type="text"
              size="small"
              icon={<ArrowUpOutlined />}
              disabled={index === 0}
              aria-label={`上移 第${index + 1}个志愿`}
              onClick={() => onMove(index, index - 1)}
            />
            <Button
              type="text"
              size="small"
              icon={<ArrowDownOutlined />}
              disabled={last}
              aria-label={`下移 第${index + 1}个志愿`}
              onClick={() => onMove(index, index + 1)}
            />
            <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={`删除 第${index + 1}个志愿`} onClick={() => onRemove(item.lineId)} />
          </span>
        )}
      </div>
      {!oneLine && (figures || meta) ? (
        // Figures first (with their year), then the codes, city and tags; cut at the end if the list is very narrow.
        <div style={{ ...small, fontSize: 11, lineHeight: '15px', paddingLeft: readOnly ? 28 : 42, overflow: 'hidden', textOverflow: 'ellipsis', ...dim }}>
          {figures ? <span style={{ fontVariantNumeric: 'tabular-nums' }}>{figures}</span> : null}
          {figures && meta ? ' · ' : null}
          {meta}
        </div>
      ) : null}
      {item.stale ? <div style={{ paddingLeft: 28, fontSize: 12, color: '#cf1322' }}>{item.staleReason || '该志愿不在当前招生目录中，请替换'}</div> : null}
    </li>
  );
}
