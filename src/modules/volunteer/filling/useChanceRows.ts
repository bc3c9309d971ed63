import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ChanceResult, type ChanceRow, enrollChance, likeAdd, likeDel, likeList } from '@/api/volunteer';
import { buildChanceQuery, type FillingFilterValues } from './filterQuery';

/** Rows of the first, fast answer; the rest follows in one all=1 call while the first rows are already shown. */
export const FIRST_PAGE = 100;

const EMPTY: ChanceResult = { rows: [], total: 0, student: null, tierCounts: { 冲: 0, 稳: 0, 保: 0 }, notes: [] };

/**
 * The options table's data: the acceptance-rate query for the current filters (only the newest answer is kept when
 * filters change quickly), or the student's favourites; and the favourite toggle.
 */
export function useChanceRows(studentId: number, filters: FillingFilterValues, likedOnly: boolean) {
  const { message } = App.useApp();
  const [result, setResult] = useState<ChanceResult>(EMPTY);
  const [loading, setLoading] = useState(false);
  /** The first rows are shown; the full list is still coming. */
  const [loadingRest, setLoadingRest] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [likes, setLikes] = useState<Map<number, boolean>>(new Map());
  const seq = useRef(0);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    setLoadingRest(false);
    setError(null);
    try {
      if (likedOnly) {
        const rows = await likeList(studentId);
        const shown = filters.tier === 'all' ? rows : rows.filter((r) => r.tier === filters.tier);
        if (n !== seq.current) return;
        setResult({ ...EMPTY, rows: shown.map((r) => ({ ...r, liked: true })), total: shown.length });
        setLikes(new Map());
      } else {
        // Thousands of rows take a second or more: the first page is shown at once, the whole list replaces it.
        const { all: _all, ...base } = buildChanceQuery(studentId, filters);
        const first = await enrollChance({ ...base, pageNum: 1, pageSize: FIRST_PAGE });
        if (n !== seq.current) return;
        setResult(first);
        setLikes(new Map());
        if (first.total > first.rows.length) {
          setLoading(false);
          setLoadingRest(true);
          const rest = await enrollChance(buildChanceQuery(studentId, filters));
          if (n === seq.current) setResult(rest);
        }
      }
    } catch (e) {
      if (n === seq.current) setError((e as Error).message || '查询失败');
    } finally {
      if (n === seq.current) {
        setLoading(false);
        setLoadingRest(false);
      }
    }
  }, [studentId, filters, likedOnly]);

  useEffect(() => {
    load();
  }, [load]);

  const liked = useCallback((row: ChanceRow) => likes.get(row.lineId) ?? Boolean(row.liked), [likes]);

  const toggleLike = async (row: ChanceRow) => {
    const on = liked(row);
    setLikes((m) => new Map(m).set(row.lineId, !on));
    try {
      const msg = on ? await likeDel(studentId, row.lineId) : await likeAdd(studentId, row.lineId);
      message.success(msg || (on ? '已取消收藏' : '收藏成功'));
    } catch {
      setLikes((m) => new Map(m).set(row.lineId, on));
    }
  };

  return { ...result, loading, loadingRest, error, reload: load, liked, toggleLike };
}
