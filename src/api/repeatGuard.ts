/**
 * Duplicate-submit guard (spec §5, §9): a POST or PUT whose url and body equal the previous one's within 1000 ms is a
 * double click, not a second intention, and is refused. Only the last request is remembered, like RuoYi; it is kept
 * in memory (a reload cannot double-submit within a second, and a large body could overflow sessionStorage).
 */
export const REPEAT_INTERVAL_MS = 1000;
export const REPEAT_PAYLOAD_LIMIT = 5242880;
export const REPEAT_MESSAGE = '数据正在处理，请勿重复提交';

interface Remembered {
  url: string;
  data: string;
  time: number;
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

  /** Returns the refusal message when the request repeats the previous one, else remembers it and returns null. */
  check(method: string | undefined, url: string | undefined, data: unknown): string | null {
    const verb = (method ?? 'get').toLowerCase();
    if (verb !== 'post' && verb !== 'put') return null;
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
