import { sql } from 'kysely';
import type { Db } from '../db/types.js';
import { dayKey, dayNo } from './days.js';

/**
 * 平台访问量: page views counted on the server (docs/home.md for what counts as a view). Views are added up in
 * memory and written in one statement per day every few seconds and at shutdown, never one write per request:
 * home_page_view(day) += n, and the platform's running total sys_platform.pv += n.
 */
export class PageViewCounter {
  private pending = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly intervalMs = 5000,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** One view now (the hot path: a map increment). */
  count(now = Date.now()): void {
    const d = dayNo(now);
    this.pending.set(d, (this.pending.get(d) ?? 0) + 1);
  }

  /** Views not written yet, by day key (today's figure adds them, so a view shows before the next flush). */
  unwritten(day: number): number {
    return this.pending.get(day) ?? 0;
  }

  unwrittenTotal(): number {
    let n = 0;
    for (const v of this.pending.values()) n += v;
    return n;
  }

  /** Writes what has been counted; flushes run one after another. A failed write keeps its counts for the next one. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.db.transaction().execute(async (trx) => {
        let total = 0;
        for (const [d, n] of batch) {
          total += n;
          await trx
            .insertInto('homePageView')
            .values({ day: dayKey(d), views: n })
            .onConflict((oc) => oc.column('day').doUpdateSet({ views: sql`home_page_view.views + ${n}` }))
            .execute();
        }
        await trx
          .updateTable('sysPlatform')
          .set({ pv: sql`pv + ${total}` })
          .where('id', '=', 1)
          .execute();
      });
    } catch (err) {
      for (const [d, n] of batch) this.pending.set(d, (this.pending.get(d) ?? 0) + n);
      this.onError(err);
    }
  }
}
