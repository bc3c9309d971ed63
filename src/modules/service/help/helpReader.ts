import { useSyncExternalStore } from 'react';

/**
 * 帮助指南's 阅读 row button is a plain callback (overrides.tsx); the reading drawer lives in the list page
 * (HelpPage). This tiny store carries the chosen article from one to the other.
 */
let current: number | null = null;
const listeners = new Set<() => void>();

export function openHelp(helpId: number | null): void {
  current = helpId;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOpenHelp(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
}
