import { useSyncExternalStore } from 'react';

/**
 * The row and toolbar buttons of overrides.tsx are plain callbacks; the dialogs they open live in the screens'
 * pages (examine/, advanceApproval/, appointment/). An opener carries what was chosen from one to the other.
 */
export interface Opener<T> {
  open: (value: T) => void;
  close: () => void;
  use: () => T | null;
}

export function createOpener<T>(): Opener<T> {
  let current: T | null = null;
  const listeners = new Set<() => void>();
  const set = (value: T | null) => {
    current = value;
    for (const l of listeners) l();
  };
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  return {
    open: (value) => set(value),
    close: () => set(null),
    use: () =>
      useSyncExternalStore(
        subscribe,
        () => current,
        () => null,
      ),
  };
}

/** A list opened from a link (the home page's to-dos: `?status=submitted`) starts with the link's search values. */
export function linkedSearch(params: URLSearchParams, names: string[]): Record<string, unknown> | undefined {
  const picked = names.filter((n) => params.get(n)).map((n) => [n, params.get(n)] as const);
  return picked.length ? Object.fromEntries(picked) : undefined;
}
