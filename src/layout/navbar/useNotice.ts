import { useEffect, useState } from 'react';
import { getNoteDesc } from '@/api/platform';

/** Spec §4 / §9: the notice text is fetched on load and every 5 minutes. */
export const NOTICE_REFRESH_MS = 300000;

export interface Notice {
  tips_title: string;
  tips: string[];
  gddesc: string;
}

/** Notice info (spec §3): tips title, three tip lines and the scrolling text; refreshed every 300000 ms. */
export function useNotice(): Notice | null {
  const [notice, setNotice] = useState<Notice | null>(null);
  useEffect(() => {
    let alive = true;
    const load = () => {
      getNoteDesc()
        .then((n) => {
          if (alive) setNotice(n);
        })
        .catch(() => {
          // The http layer has reported it; keep the last notice.
        });
    };
    load();
    const timer = window.setInterval(load, NOTICE_REFRESH_MS);
    return () => {
      alive = false;
      window.clearInterval(timer);
    };
  }, []);
  return notice;
}
