import type { SqlStat, SqlStatRow } from '../../common/monitor/sqlStats.js';

/**
 * SQL statistics collected at the query layer (Kysely's `log` hook, server/db/connection.ts) for 数据监控: per
 * normalised statement — literals and placeholders replaced by `?`, lists collapsed, whitespace folded, so no parameter
 * value is ever kept — the count, errors, total / max time and when it last ran.
 */
const MAX_STATEMENTS = 2000;

export function normaliseSql(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, '?') // string literals
    .replace(/\$\d+/g, '?') // PostgreSQL placeholders
    .replace(/\b\d+(?:\.\d+)?\b/g, '?') // numbers
    .replace(/\(\s*\?(?:\s*,\s*\?)+\s*\)/g, '(?, …)') // in (?, ?, ?) of any length
    .replace(/\s+/g, ' ')
    .trim();
}

export class SqlStats {
  private readonly stats = new Map<string, SqlStat>();
  private dropped = 0;
  since = Date.now();

  /** SQL text → its normalised form: the same texts come back on every request, and the regexes cost more than a lookup. */
  private readonly keys = new Map<string, string>();

  record(sql: string, ms: number, failed: boolean): void {
    let key = this.keys.get(sql);
    if (key === undefined) {
      key = normaliseSql(sql);
      if (this.keys.size >= MAX_STATEMENTS * 2) this.keys.clear(); // texts with inlined values: start over
      this.keys.set(sql, key);
    }
    let s = this.stats.get(key);
    if (!s) {
      if (this.stats.size >= MAX_STATEMENTS) {
        this.dropped++;
        return;
      }
      s = { sql: key, count: 0, errors: 0, totalMs: 0, maxMs: 0, lastMs: 0, lastAt: 0 };
      this.stats.set(key, s);
    }
    s.count++;
    if (failed) s.errors++;
    s.totalMs += ms;
    s.lastMs = ms;
    if (ms > s.maxMs) s.maxMs = ms;
    s.lastAt = Date.now();
  }

  reset(): void {
    this.stats.clear();
    this.dropped = 0;
    this.since = Date.now();
  }

  /** The statements, ordered by `by`, with their mean time. */
  top(by: 'count' | 'maxMs' | 'meanMs' | 'totalMs', limit = 50): SqlStatRow[] {
    const rows: SqlStatRow[] = [...this.stats.values()].map((s) => ({ ...s, meanMs: s.count ? s.totalMs / s.count : 0 }));
    rows.sort((a, b) => b[by] - a[by]);
    return rows.slice(0, limit);
  }

  summary() {
    let count = 0;
    let errors = 0;
    let totalMs = 0;
    for (const s of this.stats.values()) {
      count += s.count;
      errors += s.errors;
      totalMs += s.totalMs;
    }
    return { statements: this.stats.size, count, errors, totalMs, dropped: this.dropped, since: this.since };
  }
}
