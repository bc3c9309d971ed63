import { useEffect, useState } from 'react';
import { getVersionInfo, type VersionInfo } from '@/api/home';

/** The version info (newest release + history) for the screens that show it; loads when `active`. */
export function useVersionInfo(active = true): { info: VersionInfo | null; loading: boolean } {
  const [info, setInfo] = useState<VersionInfo | null>(null);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!active) return;
    let live = true;
    setLoading(true);
    getVersionInfo()
      .then((v) => live && setInfo(v))
      .catch(() => undefined) // shown by the http layer
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [active]);
  return { info, loading };
}
