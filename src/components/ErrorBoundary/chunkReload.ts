/**
 * A tab opened before a redeploy still runs the old build, whose page chunks the server no longer has (every file
 * under /assets/ carries its content hash, server/static.ts answers 404 for the old names). The first page the user
 * opens after the redeploy then fails to load its code. Reloading the page fetches the new index.html and with it
 * the new build; this module decides when to do that, at most once per RELOAD_GUARD_MS, so a chunk that is missing
 * from the new build too (or a broken server) shows an error page instead of reloading forever.
 */

/** sessionStorage key of the marker: when the last reload for a failed chunk was asked for, and by which page load. */
export const RELOAD_MARKER_KEY = 'chunk-reload';
/** A second chunk failure within this time after a reload shows the error page instead of reloading again. */
export const RELOAD_GUARD_MS = 30_000;

/**
 * What browsers and bundlers say when a module's code could not be fetched: Chromium ("Failed to fetch dynamically
 * imported module"), Safari ("Importing a module script failed", or the MIME type of an HTML answer), Firefox ("error
 * loading dynamically imported module"), Vite's preload helper ("Unable to preload CSS for …", the error it carries
 * in its vite:preloadError event and then throws into the import) and webpack-style loaders ("Loading chunk 12 failed").
 */
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|is not a valid JavaScript MIME type|Loading (?:CSS )?chunk [\w-]+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_ERROR.test(error.message);
}

/**
 * 'reloading': the page is being reloaded for the new build; 'failed': it was reloaded a moment ago and the code is
 * still missing; 'offline': the browser has no network (a reload would only show the browser's own offline page).
 */
export type ChunkOutcome = 'reloading' | 'failed' | 'offline';

interface Marker {
  /** Date.now() when the reload was asked for. */
  at: number;
  /** performance.timeOrigin of the page load that asked: a reload starts a page load with a new one. */
  load: number;
}

const thisLoad = () => performance.timeOrigin;

function readMarker(): Marker | undefined {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(RELOAD_MARKER_KEY) ?? 'null');
    if (value && typeof value === 'object' && 'at' in value && 'load' in value && typeof value.at === 'number' && typeof value.load === 'number')
      return { at: value.at, load: value.load };
  } catch {
    // Storage blocked or an unreadable value: as if there were no marker.
  }
  return undefined;
}

/**
 * Called for a failed chunk: reloads the page unless this page load has already asked to (several boundaries can
 * catch the failure of one navigation) or a reload for a failed chunk happened less than RELOAD_GUARD_MS ago.
 */
export function reloadOnce(): ChunkOutcome {
  const marker = readMarker();
  if (marker?.load === thisLoad()) return 'reloading';
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return 'offline';
  const now = Date.now();
  if (marker && now - marker.at >= 0 && now - marker.at < RELOAD_GUARD_MS) return 'failed';
  try {
    sessionStorage.setItem(RELOAD_MARKER_KEY, JSON.stringify({ at: now, load: thisLoad() } satisfies Marker));
  } catch {
    // Without the marker nothing would stop a reload loop: show the error page instead.
    return 'failed';
  }
  window.location.reload();
  return 'reloading';
}

/**
 * Called once a routed page has rendered: the code loads again, so a later redeploy may reload once more. A marker of
 * this very page load stays (the page is about to reload).
 */
export function clearReloadMarker(): void {
  const marker = readMarker();
  if (!marker || marker.load === thisLoad()) return;
  try {
    sessionStorage.removeItem(RELOAD_MARKER_KEY);
  } catch {
    // Storage blocked: there was no marker to clear either.
  }
}
