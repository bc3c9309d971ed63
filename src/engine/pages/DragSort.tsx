import { HolderOutlined } from '@ant-design/icons';
import type { AppEndpoint } from '@common/engine/types';
import { DndContext, type DragEndEvent, PointerSensor, useSensor, useSensors } from '@dnd-kit/core';
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { BaseKey, BaseRecord } from '@refinedev/core';
import { App, Button, type TableColumnType, type TableProps } from 'antd';
import { type CSSProperties, createContext, type HTMLAttributes, type ReactNode, useContext, useMemo } from 'react';
import { request } from '@/api/request';
import { useAccess } from '@/components/Access';
import type { ResourceDef } from '../resource';

/**
 * x-dragSort: rows are moved by a handle in the first column; on drop the shown rows' keys go to the server in their
 * new order (rest: PUT {base}/reorder, app: POST {base}/{actions.reorder}), which hands out their sort slots again.
 * Offered only while the list is in its default order (that property ascending, no column sort chosen) and to users
 * holding the edit permission.
 */

interface HandleContext {
  setActivatorNodeRef?: (el: HTMLElement | null) => void;
  listeners?: Record<string, unknown>;
}
const RowHandle = createContext<HandleContext>({});

function DragHandle() {
  const { setActivatorNodeRef, listeners } = useContext(RowHandle);
  return (
    <Button type="text" size="small" icon={<HolderOutlined />} style={{ cursor: 'move' }} ref={setActivatorNodeRef} aria-label="拖动排序" {...listeners} />
  );
}

function SortableRow(props: HTMLAttributes<HTMLTableRowElement> & { 'data-row-key': string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: props['data-row-key'] });
  const style: CSSProperties = {
    ...props.style,
    transform: CSS.Translate.toString(transform),
    transition,
    ...(isDragging ? { position: 'relative', zIndex: 20, background: '#fafafa' } : {}),
  };
  const ctx = useMemo(() => ({ setActivatorNodeRef, listeners: listeners as Record<string, unknown> | undefined }), [setActivatorNodeRef, listeners]);
  return (
    <RowHandle.Provider value={ctx}>
      <tr {...props} ref={setNodeRef} style={style} {...attributes} />
    </RowHandle.Provider>
  );
}

export function reorderCall(def: ResourceDef, ids: BaseKey[]) {
  const ep = def.schema['x-endpoint'];
  if (ep.style === 'app') return request({ url: `${ep.base}/${(ep as AppEndpoint).actions.reorder ?? 'reorder'}`, method: 'post', data: { ids } });
  return request({ url: `${ep.base}/reorder`, method: 'put', data: { ids } });
}

export interface DragSort {
  enabled: boolean;
  columns: (cols: TableColumnType<BaseRecord>[]) => TableColumnType<BaseRecord>[];
  components: TableProps<BaseRecord>['components'];
  wrap: (table: ReactNode) => ReactNode;
}

export function useDragSort(def: ResourceDef, rows: BaseRecord[], defaultOrder: boolean, onMoved: () => void): DragSort {
  const { message } = App.useApp();
  const { can } = useAccess();
  const field = def.schema['x-dragSort'];
  const sort = def.schema['x-sort'];
  const edit = def.permissions.edit;
  const enabled = Boolean(field && edit && can(edit) && defaultOrder && sort?.default === field && sort.order === 'asc');
  const pk = def.primaryKey;
  const ids = useMemo(() => rows.map((r) => String(r[pk])), [rows, pk]);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }));

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const order = arrayMove(ids, ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
    try {
      await reorderCall(
        def,
        order.map((id) => Number(id)),
      );
      message.success('排序成功');
    } catch {
      // The http layer has shown the refusal; the list shows the stored order again.
    }
    onMoved();
  };

  if (!enabled) return { enabled, columns: (c) => c, components: undefined, wrap: (t) => t };
  return {
    enabled,
    columns: (cols) => [{ key: '__drag', title: '拖动', width: 60, align: 'center', render: () => <DragHandle /> }, ...cols],
    components: { body: { row: SortableRow } },
    wrap: (table) => (
      <DndContext sensors={sensors} onDragEnd={onDragEnd}>
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          {table}
        </SortableContext>
      </DndContext>
    ),
  };
}
