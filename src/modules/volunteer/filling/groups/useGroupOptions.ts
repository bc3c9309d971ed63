import { useCallback, useEffect, useRef, useState } from 'react';
import { type GroupOptions, groupOptions, type Tier } from '@/api/volunteer';

export const GROUP_PAGE_SIZE = 20;
export const GROUP_PAGE_SIZES = [20, 50, 100];

export interface GroupQueryState {
  tier: Tier | 'all';
  keyword: string;
}

/**
 * One page of the student's 院校专业组 options (filtered, sorted and paged on the server, groups/options) with the
 * counts per tier; only the newest answer is kept when the tier, the search or the page change quickly.
 */
export function useGroupOptions(studentId: number, query: GroupQueryState) {
  const [result, setResult] = useState<GroupOptions | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A page belongs to the query it was chosen on: a new tier or search starts at page 1.
  const [chosen, setChosen] = useState({ query, pageNum: 1, pageSize: GROUP_PAGE_SIZE });
  const pageNum = chosen.query === query ? chosen.pageNum : 1;
  const pageSize = chosen.pageSize;
  const seq = useRef(0);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    setError(null);
    try {
      const page = await groupOptions({
        studentId,
        tier: query.tier === 'all' ? undefined : query.tier,
        keyword: query.keyword || undefined,
        pageNum,
        pageSize,
      });
      if (n === seq.current) setResult(page);
    } catch (e) {
      if (n === seq.current) setError((e as Error).message || '查询失败');
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, [studentId, query, pageNum, pageSize]);

  useEffect(() => {
    load();
  }, [load]);

  const changePage = (num: number, size: number) => setChosen({ query, pageNum: size !== pageSize ? 1 : num, pageSize: size });
  return { result, loading, error, reload: load, pageNum, pageSize, changePage };
}
