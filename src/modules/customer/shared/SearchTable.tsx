import { Button, Form, type FormInstance, Space, Table, type TableProps } from 'antd';
import type { ReactNode } from 'react';
import { PAGE_SIZES } from './format';
import type { usePaged } from './usePaged';

type Paged<T, Q extends { pageNum: number; pageSize: number }> = Pick<ReturnType<typeof usePaged<T, Q>>, 'query' | 'setQuery' | 'page' | 'loading'>;

/**
 * The search form of the 会员卡 / 用户管理 lists: the page's fields, then 搜索 / 重置 and the page's own buttons.
 * 搜索 starts at page 1 with what `toQuery` makes of the fields; 重置 clears them and keeps what `keep` names
 * (e.g. 卡片二's status tab).
 */
export function SearchForm<V extends object, T, Q extends { pageNum: number; pageSize: number }>(props: {
  form: FormInstance<V>;
  paged: Paged<T, Q>;
  toQuery: (values: V) => Partial<Q>;
  keep?: Partial<Q>;
  children: ReactNode;
  extra?: ReactNode;
  marginBottom?: number;
}) {
  const { form, paged, toQuery, keep, children, extra, marginBottom = 16 } = props;
  const { query, setQuery } = paged;
  return (
    <Form
      form={form}
      layout="inline"
      style={{ marginBottom, rowGap: 8 }}
      onFinish={(v) => setQuery({ ...keep, ...toQuery(v), pageNum: 1, pageSize: query.pageSize } as Q)}
    >
      {children}
      <Space>
        <Button type="primary" htmlType="submit">
          搜索
        </Button>
        <Button
          onClick={() => {
            form.resetFields();
            setQuery({ ...keep, pageNum: 1, pageSize: query.pageSize } as Q);
          }}
        >
          重置
        </Button>
        {extra}
      </Space>
    </Form>
  );
}

/** The paged table of those lists: 10 / 20 / 30 / 50 rows, 共 N 条, page changes through the list's query. */
export function PagedTable<T extends object, Q extends { pageNum: number; pageSize: number }>(
  props: { paged: Paged<T, Q> } & Pick<TableProps<T>, 'rowKey' | 'columns' | 'scroll' | 'rowSelection' | 'locale' | 'expandable'>,
) {
  const { paged, ...table } = props;
  const { query, setQuery, page, loading } = paged;
  return (
    <Table<T>
      size="middle"
      loading={loading}
      dataSource={page.rows}
      {...table}
      pagination={{
        current: query.pageNum,
        pageSize: query.pageSize,
        total: page.total,
        showSizeChanger: true,
        pageSizeOptions: PAGE_SIZES,
        showTotal: (t) => `共 ${t} 条`,
        onChange: (pageNum, pageSize) => setQuery({ ...query, pageNum, pageSize }),
      }}
    />
  );
}
