import { Button, Form, type FormInstance, Space, Table, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { Pagination } from '@/components/Pagination';
import type { usePagedQuery } from './usePagedQuery';
import type { useRowPicker } from './useRowPicker';

export { usePagedQuery } from './usePagedQuery';
export { useRowPicker } from './useRowPicker';

/**
 * The inline search form above a list: the screen's fields, then 搜索 (submits: `onSearch` gets the values and runs
 * the search from page 1) and 重置 (the screen's own: clear the fields, keep what the screen keeps).
 */
export function SearchForm<V extends object>(props: {
  form: FormInstance<V>;
  onSearch: (values: V) => void;
  onReset: () => void;
  children: ReactNode;
  /** Form name (ids of the fields). */
  name?: string;
  marginBottom?: number;
  /** Hidden by the list's toolbar (显示/隐藏搜索): kept mounted so the filters stay. */
  hidden?: boolean;
}) {
  const { form, onSearch, onReset, children, name, marginBottom = 16, hidden } = props;
  return (
    <Form<V> form={form} name={name} layout="inline" onFinish={onSearch} style={{ marginBottom, rowGap: 8, display: hidden ? 'none' : undefined }}>
      {children}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit">
            搜索
          </Button>
          <Button onClick={onReset}>重置</Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

/** The table of a picker dialog (选择用户, 导入表): a compact page of rows to pick from, the pager under it. */
export function PickerTable<T extends object, K extends Key>(
  props: {
    list: Pick<ReturnType<typeof usePagedQuery<T, never>>, 'rows' | 'loading' | 'pagination'>;
    picker: Pick<ReturnType<typeof useRowPicker<T, K>>, 'tableProps'>;
    scrollY: number;
  } & Required<Pick<TableProps<T>, 'rowKey' | 'columns'>>,
) {
  const { list, picker, scrollY, rowKey, columns } = props;
  return (
    <>
      <Table<T>
        rowKey={rowKey}
        size="small"
        loading={list.loading}
        columns={columns}
        dataSource={list.rows}
        pagination={false}
        scroll={{ y: scrollY }}
        {...picker.tableProps}
      />
      <Pagination {...list.pagination} />
    </>
  );
}
