import { useCallback, useEffect, useState } from 'react';
import type { TablePage } from '@/api/types';

/** A paged list: query state, rows, total, loading and reload; failures are shown by the http layer. */
export function usePaged<T, Q extends { pageNum: number; pageSize: number }>(load: (q: Q) => Promise<TablePage<T> & Record<string, unknown>>, initial: Q) {
  const [query, setQuery] = useState<Q>(initial);
  const [page, setPage] = useState<TablePage<T> & Record<string, unknown>>({ rows: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setPage(await load(query));
    } catch {
      // shown by the http layer
    } finally {
      setLoading(false);
    }
  }, [load, query]);
  useEffect(() => {
    reload();
  }, [reload]);
  return { query, setQuery, page, loading, reload };
}
