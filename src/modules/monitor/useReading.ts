import { useCallback, useEffect, useState } from 'react';

/**
 * One reading of a monitor page (缓存监控, 缓存列表 names, 数据监控, 监控总览): read at start, again on 刷新 (`load`) and, with
 * `everyMs`, on a timer. A failed read keeps the last reading on screen; the http layer has told the user why.
 * `read` must be stable (a module's api function).
 */
export function useReading<T>(read: () => Promise<T>, everyMs?: number) {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(false);
  const load = useCallback(async () => {
    setLoading(true);
    try {
      setData(await read());
    } catch {
      // Reported by the http layer; the page keeps the last reading.
    } finally {
      setLoading(false);
    }
  }, [read]);
  useEffect(() => {
    load();
    if (!everyMs) return;
    const timer = window.setInterval(load, everyMs);
    return () => window.clearInterval(timer);
  }, [load, everyMs]);
  return { data, loading, load };
}
