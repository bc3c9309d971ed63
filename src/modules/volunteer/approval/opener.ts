import { createActionChannel } from '@/utils/actionChannel';

/**
 * The row and toolbar buttons of overrides.tsx are plain callbacks; the dialogs they open live in the screens'
 * pages (examine/, advanceApproval/, appointment/, students/). An opener carries what was chosen from one to the
 * other: the console's one action channel (src/utils/actionChannel.ts) with open / close names.
 */
export interface Opener<T> {
  open: (value: T) => void;
  close: () => void;
  use: () => T | null;
}

export function createOpener<T>(): Opener<T> {
  const channel = createActionChannel<T>();
  return { open: (value) => channel.request(value), close: () => channel.request(null), use: channel.use };
}

/** A list opened from a link (the home page's to-dos: `?status=submitted`) starts with the link's search values. */
export function linkedSearch(params: URLSearchParams, names: string[]): Record<string, unknown> | undefined {
  const picked = names.filter((n) => params.get(n)).map((n) => [n, params.get(n)] as const);
  return picked.length ? Object.fromEntries(picked) : undefined;
}
