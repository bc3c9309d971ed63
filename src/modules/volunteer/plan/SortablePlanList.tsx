import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined } from '@ant-design/icons';
import { closestCenter, DndContext, type DragEndEvent, KeyboardSensor, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { Button, Empty, Switch, Tooltip, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { lineFigures } from '../shared/format';
import { StaleTag, SubjectReq } from '../shared/lineTags';
import { Probability, TIER_STYLE, TierTag } from '../shared/tiers';
import type { EditorItem } from './planModel';

export interface SortablePlanListProps {
  items: readonly EditorItem[];
  readOnly: boolean;
  /** 0-based positions named by a warning: highlighted. */
  warned: ReadonlySet<number>;
  /** Show 服从调剂 on the first entry of each 院校专业组. */
  showObey: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: (lineId: number) => void;
  onObey: (item: EditorItem, obey: boolean) => void;
  onOpenChance?: (item: EditorItem) => void;
}

/** The ordered plan: drag by the handle (mouse, touch or keyboard: space, arrows, space), or 上移/下移. */
export function SortablePlanList({ items, readOnly, warned, showObey, onMove, onRemove, onObey, onOpenChance }: SortablePlanListProps) {
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
        <ol className="zy-plan-list" aria-label="志愿表" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item, n) => (
            <PlanRow
              key={item.lineId}
              item={item}
              index={n}
              last={n === items.length - 1}
              readOnly={readOnly}
              warned={warned.has(n)}
              obeyShown={showObey && firstOfGroup.has(n)}
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

interface PlanRowProps {
  item: EditorItem;
  index: number;
  last: boolean;
  readOnly: boolean;
  warned: boolean;
  obeyShown: boolean;
  onMove: (from: number, to: number) => void;
  onRemove: (lineId: number) => void;
  onObey: (item: EditorItem, obey: boolean) => void;
  onOpenChance?: (item: EditorItem) => void;
}

function PlanRow({ item, index, last, readOnly, warned, obeyShown, onMove, onRemove, onObey, onOpenChance }: PlanRowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: item.lineId, disabled: readOnly });
  const style: CSSProperties = {
    transform: CSS.Transform.toString(transform),
    transition,
    display: 'flex',
    alignItems: 'center',
    gap: 8,
    padding: '6px 8px',
    borderBottom: '1px solid #f0f0f0',
    borderLeft: `3px solid ${item.tier ? TIER_STYLE[item.tier].color : '#d9d9d9'}`,
    background: isDragging ? '#fafafa' : item.stale ? '#fff1f0' : warned ? '#fffbe6' : '#fff',
    boxShadow: isDragging ? '0 4px 12px rgba(0,0,0,.15)' : undefined,
    position: 'relative',
    zIndex: isDragging ? 2 : undefined,
  };
  const name = [item.schoolName, item.majorName].filter(Boolean).join(' ');
  const figures = item.minScore != null || item.minRank != null ? lineFigures(item) : null;
  return (
    <li ref={setNodeRef} style={style} data-testid="plan-row" data-line-id={item.lineId} aria-label={`第${index + 1}个志愿 ${name}`}>
      {readOnly ? null : (
        <button
          type="button"
          ref={setActivatorNodeRef}
          {...attributes}
          {...listeners}
          aria-label={`拖动排序 第${index + 1}个志愿`}
          className="zy-drag-handle"
          style={{ cursor: 'grab', border: 0, background: 'transparent', padding: 2, color: '#999', touchAction: 'none' }}
        >
          <HolderOutlined />
        </button>
      )}
      <span style={{ width: 26, textAlign: 'right', color: '#888', fontVariantNumeric: 'tabular-nums' }}>{index + 1}</span>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 4, minWidth: 0 }}>
          <Typography.Text strong ellipsis style={{ flex: '0 1 auto', minWidth: 0 }} title={item.schoolName}>
            {item.schoolName}
          </Typography.Text>
          {item.stale ? <StaleTag reason={item.staleReason} /> : null}
        </div>
        <Typography.Text
          type="secondary"
          ellipsis
          style={{ display: 'block', fontSize: 12 }}
          title={[item.majorName, item.majorCode ? `专业代号 ${item.majorCode}` : null, figures].filter(Boolean).join(' · ')}
        >
          {groupLabel(item) ?? item.majorName ?? '院校专业组'}
        </Typography.Text>
        {/* The figures on their own line, never cut off: the year beside them is what makes them readable. */}
        {figures || item.subjectReq ? (
          <div style={{ lineHeight: 1.3, fontSize: 12, display: 'flex', flexWrap: 'wrap', columnGap: 8 }}>
            {figures ? (
              <Typography.Text type="secondary" style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
                {figures}
              </Typography.Text>
            ) : null}
            {item.subjectReq ? <SubjectReq subjectReq={item.subjectReq} /> : null}
          </div>
        ) : null}
        {item.stale ? (
          <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }}>
            {item.staleReason || '该志愿不在当前招生目录中，请替换'}
          </Typography.Text>
        ) : null}
      </div>
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
      <TierTag tier={item.tier} />
      <Button type="link" size="small" style={{ padding: 0, width: 56 }} onClick={() => onOpenChance?.(item)} aria-label={`录取率 ${name}`}>
        <Probability probability={item.probability} text={item.probabilityText} tier={item.tier} />
      </Button>
      {readOnly ? null : (
        <span style={{ display: 'inline-flex' }}>
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
    </li>
  );
}
