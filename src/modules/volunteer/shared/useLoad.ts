import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Loads once `enabled` turns true (a dialog opening) and again on `reload()`. Errors have been shown by the http
 * layer; `error` keeps the text for an inline hint with what to do.
 */
export function useLoad<T>(loader: () => Promise<T>, enabled: boolean, deps: unknown[] = []) {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);
  const run = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    setError(null);
    try {
      const value = await loader();
      if (n === seq.current) setData(value);
    } catch (e) {
      if (n === seq.current) setError((e as Error).message || '加载失败');
    } finally {
      if (n === seq.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    if (enabled) run();
  }, [enabled, run]);
  return { data, loading, error, reload: run, setData };
}
