import type { TablePaginationConfig } from 'antd';

/** Server-side paging of an options table (the acceptance query, the 院校专业组 options). */
export interface OptionsPaging {
  pageNum: number;
  pageSize: number;
  total: number;
  pageSizes: number[];
  onChange: (pageNum: number, pageSize: number) => void;
}

/** The compact pager of the options tables: "第 1-50 条，共 12,345 条", sizes of the filling page. */
export function optionsPagination(paging: OptionsPaging): TablePaginationConfig {
  return {
    current: paging.pageNum,
    pageSize: paging.pageSize,
    total: paging.total,
    pageSizeOptions: paging.pageSizes,
    showSizeChanger: true,
    showTotal: (total, [from, to]) => `第 ${from}-${to} 条，共 ${total.toLocaleString('zh-CN')} 条`,
    size: 'small',
    onChange: paging.onChange,
  };
}
