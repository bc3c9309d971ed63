import { Pagination as AntPagination } from 'antd';
import { useDevice } from '@/layout/useDevice';

/**
 * The list pager (spec §9): sizes 10 / 20 / 30 / 50, default 20; 5 page buttons under 992 px (showLessItems), else 7.
 * Hidden when there is nothing to page, as RuoYi's pagination is.
 */
export const PAGE_SIZES = [10, 20, 30, 50];
export const DEFAULT_PAGE_SIZE = 20;

export interface PaginationProps {
  current: number;
  pageSize: number;
  total: number;
  onChange: (page: number, pageSize: number) => void;
  hideOnEmpty?: boolean;
}

export function Pagination({ current, pageSize, total, onChange, hideOnEmpty = true }: PaginationProps) {
  const mobile = useDevice() === 'mobile';
  if (hideOnEmpty && total <= 0) return null;
  return (
    <AntPagination
      className="zy-pagination"
      style={{ marginTop: 16, justifyContent: 'flex-end', display: 'flex' }}
      current={current}
      pageSize={pageSize}
      total={total}
      pageSizeOptions={PAGE_SIZES}
      showSizeChanger
      showQuickJumper={!mobile}
      showLessItems={mobile}
      showTotal={(t) => `共 ${t} 条`}
      onChange={(page, size) => onChange(size !== pageSize ? 1 : page, size)}
    />
  );
}
