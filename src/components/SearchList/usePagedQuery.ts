import { useEffect, useRef, useState } from 'react';
import type { TablePage } from '@/api/types';

/**
 * A searchable paged list: the query (filters + pageNum / pageSize), the page it answers and the props of the pager.
 * It loads whenever the query changes while `enabled` (a dialog: while open); a failure has been shown by the http
 * layer and the last rows stay. An answer that arrives after a newer query is dropped.
 */
export function usePagedQuery<T, Q extends { pageNum: number; pageSize: number }>(fetch: (q: Q) => Promise<TablePage<T>>, initial: Q, enabled = true) {
  const [query, setQuery] = useState<Q>(initial);
  const [rows, setRows] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  // The latest fetch, so a screen may pass an inline function without reloading on every render.
  const fetchRef = useRef(fetch);
  useEffect(() => {
    fetchRef.current = fetch;
  });

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setLoading(true);
    fetchRef.current(query).then(
      (page) => {
        if (!live) return;
        setRows(page.rows);
        setTotal(page.total);
        setLoading(false);
      },
      () => {
        if (live) setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [enabled, query]);

  return {
    query,
    setQuery,
    rows,
    total,
    loading,
    /** Loads the same page again (after a change the list shows). */
    reload: () => setQuery((q) => ({ ...q })),
    /** For the Pagination under the table. */
    pagination: {
      current: query.pageNum,
      pageSize: query.pageSize,
      total,
      onChange: (pageNum: number, pageSize: number) => setQuery((q) => ({ ...q, pageNum, pageSize })),
    },
  };
}
