import type { QueryClient } from '@tanstack/react-query';
import { inflightReads, repeatGuard } from '@/api/repeatGuard';

/**
 * Everything a signed-in user leaves in this browser besides the token and the session store: the open tabs
 * (sessionStorage, restored on the next visit), the post-login redirect, reads in flight, the last remembered write,
 * and the data cache of every page (react-query). Sign-out and sign-in both forget it, so the next user on this
 * browser starts from their own 首页 with nothing of the previous user's.
 */

/** sessionStorage key of the open tabs (useTags); here so the session layer can drop it without importing the layout. */
export const TAGS_STORAGE_KEY = 'tags-view-visited';

// The console's one query cache, handed over by the signed-in frame (it lives inside Refine's provider).
let queryClient: QueryClient | null = null;
export function rememberQueryClient(client: QueryClient): void {
  queryClient = client;
}

export function forgetUserData(): void {
  try {
    sessionStorage.removeItem(TAGS_STORAGE_KEY);
  } catch {
    // Storage unavailable: there were no saved tabs either.
  }
  inflightReads.clear();
  repeatGuard.reset();
  queryClient?.clear();
}
