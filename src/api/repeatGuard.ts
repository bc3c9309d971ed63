/**
 * Duplicate-submit guard (spec §5, §9): a POST or PUT whose url and body equal the previous one's within 1000 ms is a
 * double click, not a second intention, and is refused. Only the last write is remembered, like RuoYi; it is kept
 * in memory (a reload cannot double-submit within a second, and a large body could overflow sessionStorage).
 *
 * Reads are not submits. Most reads of this back office are POSTs (list/info/query calls of the /appv2 and
 * /dev-api/api families), and two components of two pages opened at once ask the same thing; refusing the second
 * left a page without its data. So a call is first classified:
 *   - `options.read: true` / `false` on the call decides explicitly (use it for any new call whose name misleads);
 *   - otherwise GET, HEAD and OPTIONS are reads, DELETE is a write the guard does not compare (as RuoYi);
 *   - a POST/PUT is a read when the last segment of its path is a read-call name ({@link isReadCallName}):
 *     list/info/query/detail/…, get…/query…/select…, …List/…Info/…Detail/…Config/…, or one of READ_CALLS.
 *   - anything else is a write: unknown names stay guarded, the safe side for a double click.
 * Reads never meet the guard; identical reads in flight at the same moment share one request (see request.ts).
 */
export const REPEAT_INTERVAL_MS = 1000;
export const REPEAT_PAYLOAD_LIMIT = 5242880;
export const REPEAT_MESSAGE = '数据正在处理，请勿重复提交';

interface Remembered {
  url: string;
  data: string;
  time: number;
}

/** POST reads whose names follow no pattern below (the ported app's own spellings). */
export const READ_CALLS: ReadonlySet<string> = new Set([
  'list',
  'info',
  'query',
  'detail',
  'config',
  'history',
  'report',
  'experts',
  'students',
  'subscriber',
  'finalPlan',
  'pre_batch',
  'schoolEnrollChance',
  'schoolEnrollChance_auto',
  'submitHis',
  'OrdinaryBatchFiter',
  'areaChilds',
  'schoolHome',
  'systermUpdateList',
  'shareZY',
  'treeselect',
  'optionselect',
  'openapi.json',
]);

const READ_PREFIX = /^(get|query|select|search|list|find|count|load|fetch)[A-Z_]/;
const READ_SUFFIX = /(List|Info|Detail|Details|Config|Tree|Options|Desc|Rule|Home|Count|Stats)$/;

/** True when a POST/PUT named so only reads (the last path segment, query string ignored). */
export function isReadCallName(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0] ?? '';
  const name = decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
  if (!name) return false;
  return READ_CALLS.has(name) || READ_PREFIX.test(name) || READ_SUFFIX.test(name);
}

/** Whether a call reads (shared when identical and in flight, never refused) or writes (guarded). */
export function isReadRequest(method: string | undefined, url: string | undefined, explicit?: boolean): boolean {
  if (explicit !== undefined) return explicit;
  const verb = (method ?? 'get').toLowerCase();
  if (verb === 'get' || verb === 'head' || verb === 'options') return true;
  if (verb !== 'post' && verb !== 'put') return false;
  return isReadCallName(url);
}

/**
 * The body as compared. Multipart and binary bodies have no faithful text form (every FormData serializes to "{}"),
 * so they are not compared at all rather than refusing two different uploads as repeats.
 */
export function serializeBody(data: unknown): string | null {
  if (data === undefined || data === null) return '';
  if (typeof data === 'string') return data;
  if (typeof FormData !== 'undefined' && data instanceof FormData) return null;
  if (typeof Blob !== 'undefined' && data instanceof Blob) return null;
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return null;
  if (typeof URLSearchParams !== 'undefined' && data instanceof URLSearchParams) return data.toString();
  if (typeof data === 'object') return JSON.stringify(data);
  return String(data);
}

export class RepeatGuard {
  private last: Remembered | null = null;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /**
   * Returns the refusal message when a write repeats the previous write, else remembers it and returns null.
   * Reads (see isReadRequest; `read` is the call's explicit flag) pass without being remembered.
   */
  check(method: string | undefined, url: string | undefined, data: unknown, read?: boolean): string | null {
    const verb = (method ?? 'get').toLowerCase();
    if (verb !== 'post' && verb !== 'put') return null;
    if (isReadRequest(verb, url, read)) return null;
    const body = serializeBody(data);
    if (body === null) return null;
    const current: Remembered = { url: url ?? '', data: body, time: this.now() };
    // Too big to keep a copy of: let it through unremembered (RuoYi warns and skips the check the same way).
    if (body.length >= REPEAT_PAYLOAD_LIMIT) return null;
    const prev = this.last;
    if (prev && prev.url === current.url && prev.data === current.data && current.time - prev.time < REPEAT_INTERVAL_MS) return REPEAT_MESSAGE;
    this.last = current;
    return null;
  }

  reset(): void {
    this.last = null;
  }
}

/** The guard shared by every request of the console. */
export const repeatGuard = new RepeatGuard();

/**
 * Identical reads in flight share one request: the second caller gets the first caller's answer instead of a second
 * round trip (and instead of a refusal). The entry is dropped as soon as the answer (or error) arrives, so a later
 * read always asks the server again.
 *
 * A read may also be started ahead of the call that needs it (`ahead`, e.g. a list page's first rows while the page
 * is still rendering): its answer waits for that identical call for `keepMs` after it arrives and is used once. A
 * failed read ahead is dropped, and the call then asks the server itself. Any write drops what waits
 * (`forgetAhead`), so an answer read before a write never stands in for one read after it.
 */
export class InflightReads {
  private readonly pending = new Map<string, Promise<unknown>>();
  private readonly early = new Map<string, { answer: Promise<unknown>; keepMs: number; arrived?: number }>();

  share<T>(key: string, start: () => Promise<T>, now = Date.now()): Promise<T> {
    const running = this.pending.get(key);
    if (running) return running as Promise<T>;
    const ahead = this.early.get(key);
    if (ahead) this.early.delete(key);
    const usable = ahead && (ahead.arrived === undefined || now - ahead.arrived <= ahead.keepMs);
    const started = (usable ? (ahead.answer as Promise<T>).catch(() => start()) : start()).finally(() => {
      if (this.pending.get(key) === started) this.pending.delete(key);
    });
    this.pending.set(key, started);
    return started;
  }

  /** Starts `start` now for an identical `share` to come; nothing if that read is already asked for. */
  ahead(key: string, start: () => Promise<unknown>, keepMs: number, now = Date.now()): void {
    for (const [k, e] of this.early) if (e.arrived !== undefined && now - e.arrived > e.keepMs) this.early.delete(k);
    if (this.pending.has(key) || this.early.has(key)) return;
    const entry: { answer: Promise<unknown>; keepMs: number; arrived?: number } = { answer: start(), keepMs };
    this.early.set(key, entry);
    entry.answer.then(
      () => {
        entry.arrived = Date.now();
      },
      () => {
        if (this.early.get(key) === entry) this.early.delete(key);
      },
    );
  }

  /** After a write: answers read ahead of it no longer stand for a read after it. */
  forgetAhead(): void {
    this.early.clear();
  }

  get size(): number {
    return this.pending.size;
  }

  clear(): void {
    this.pending.clear();
    this.early.clear();
  }
}

export const inflightReads = new InflightReads();
