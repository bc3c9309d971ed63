import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ChanceResult, type ChanceRow, enrollChance, likeAdd, likeDel, likeList } from '@/api/volunteer';
import { buildChanceQuery, type FillingFilterValues } from './filterQuery';

/**
 * Rows per page of the options table. The server scores, filters and sorts every line and answers one page
 * (without explanation strings), so opening a student costs a few tens of kB instead of every line (12 MB).
 */
export const PAGE_SIZE = 50;
export const PAGE_SIZES = [20, 50, 100];

const EMPTY: ChanceResult = { rows: [], total: 0, student: null, tierCounts: { 冲: 0, 稳: 0, 保: 0 }, notes: [] };

/**
 * The options table's data: one page of the acceptance-rate query for the current filters (only the newest answer
 * is kept when filters or the page change quickly), or the student's favourites; and the favourite toggle.
 */
export function useChanceRows(studentId: number, filters: FillingFilterValues, likedOnly: boolean) {
  const { message } = App.useApp();
  const [result, setResult] = useState<ChanceResult>(EMPTY);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [likes, setLikes] = useState<Map<number, boolean>>(new Map());
  // The page chosen belongs to the query it was chosen on: new filters (or another student) start at page 1
  // without a wasted request for the old page number.
  const [chosen, setChosen] = useState({ filters, studentId, pageNum: 1, pageSize: PAGE_SIZE });
  const pageNum = chosen.filters === filters && chosen.studentId === studentId ? chosen.pageNum : 1;
  const pageSize = chosen.pageSize;
  const seq = useRef(0);

  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    setError(null);
    try {
      if (likedOnly) {
        const rows = await likeList(studentId);
        const shown = filters.tier === 'all' ? rows : rows.filter((r) => r.tier === filters.tier);
        if (n !== seq.current) return;
        setResult({ ...EMPTY, rows: shown.map((r) => ({ ...r, liked: true })), total: shown.length });
      } else {
        const page = await enrollChance({ ...buildChanceQuery(studentId, filters), pageNum, pageSize });
        if (n !== seq.current) return;
        setResult(page);
      }
      setLikes(new Map());
    } catch (e) {
      if (n === seq.current) setError((e as Error).message || '查询失败');
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, [studentId, filters, likedOnly, pageNum, pageSize]);

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

  const changePage = (num: number, size: number) => setChosen({ filters, studentId, pageNum: size !== pageSize ? 1 : num, pageSize: size });

  return { ...result, loading, error, reload: load, liked, toggleLike, pageNum, pageSize, changePage, paged: !likedOnly };
}
