import type { TableProps } from 'antd';
import { type Key, useState } from 'react';

/**
 * The selection of a picker table (选择用户, 导入表, 分配角色): checkboxes kept across pages, and a click anywhere on a row
 * toggles it. A click on the checkbox itself is left to the checkbox, or the row would toggle it straight back.
 */
export function useRowPicker<T, K extends Key>(keyOf: (row: T) => K) {
  const [selected, setSelected] = useState<K[]>([]);
  const tableProps: Pick<TableProps<T>, 'rowSelection' | 'onRow'> = {
    rowSelection: { selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys as K[]) },
    onRow: (row) => ({
      onClick: (e) => {
        if ((e.target as HTMLElement).closest('.ant-table-selection-column')) return;
        const k = keyOf(row);
        setSelected((s) => (s.includes(k) ? s.filter((x) => x !== k) : [...s, k]));
      },
      style: { cursor: 'pointer' },
    }),
  };
  return { selected, setSelected, tableProps };
}
