import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * Issue 22 "Writes are declared, not guessed": every API route states config.write, and a route declaring
 * `write: false` (whose signature may be reused for a while and which skips the duplicate-submit window) changes no
 * table. Every registered read is called as the super admin on a fresh database and the tables its statements wrote
 * are collected from the SQL text of every statement (the same stream server/security/writeWatch.ts listens to).
 */

/**
 * Tables any request (or the server's own timers, which may fire during a call) may touch without changing business
 * data. Kept minimal; each says why:
 *  - sys_request_nonce: the claimed request signature (single-use signatures, every API call);
 *  - sys_oper_log: the audit trail records exports and downloads (who took which data), which only read business data;
 *  - sys_session: the session's last-seen time, refreshed by any signed-in call;
 *  - home_page_view: the page-view counter, flushed by a timer (server/home/pageViews.ts);
 *  - sys_monitor_node: this process's heartbeat, written by a timer (monitor).
 */
const BOOKKEEPING = new Set(['sys_request_nonce', 'sys_oper_log', 'sys_session', 'home_page_view', 'sys_monitor_node']);
/** The page-view flush also adds its total to sys_platform.pv; only that statement, not the table, is bookkeeping. */
const PAGE_VIEW_TOTAL = /^\s*update\s+"?sys_platform"?\s+set\s+"?pv"?\s*=\s*pv\s*\+/i;

const WRITE_VERB = /^\s*(insert\s+(?:or\s+\w+\s+)?into|replace\s+into|update|delete\s+from)\s+"?([\w.]+)"?/i;

/** The table a statement writes, or null for a read. */
function writtenTable(statement: string): string | null {
  if (PAGE_VIEW_TOTAL.test(statement)) return null;
  const m = WRITE_VERB.exec(statement);
  if (m) return (m[2].split('.').pop() ?? m[2]).toLowerCase();
  if (/^\s*with\b/i.test(statement) && /\b(insert|update|delete)\b/i.test(statement)) return '(cte)';
  return null;
}

/** A plausible body: paging, and id 1 under the names reads commonly take (so a read reaches past its checks). */
const PLAUSIBLE = { pageNum: 1, pageSize: 10, id: 1, studentId: 1, helpId: 1, messageId: 1, feedbackId: 1, orderNo: 'X1', appId: 1 };

const fill = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => (/name$/i.test(name) ? 'sys_user' : '1'));

describe.each(backends)('declared writes (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  let seen: string[] | null = null;

  beforeAll(async () => {
    s = await startServer(backend, { jobs: { enabled: false } });
    admin = await s.login('admin', 'admin123');
    const stats = s.app.db.sqlStats;
    if (!stats) throw new Error('the database logs no statements');
    const record = stats.record.bind(stats);
    stats.record = (statement, ms, failed) => {
      if (seen && !failed) seen.push(statement);
      record(statement, ms, failed);
    };
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('every API route declares whether it writes', () => {
    expect(s.app.routeRegistry.length).toBeGreaterThan(100);
    const undeclared = s.app.routeRegistry.filter((r) => typeof r.write !== 'boolean');
    expect(undeclared).toEqual([]);
  });

  it('a route declaring write: false changes no table', async () => {
    const offenders: string[] = [];
    const reads = s.app.routeRegistry.filter((r) => !r.write);
    expect(reads.length).toBeGreaterThan(50);
    for (const route of reads) {
      const url = fill(route.url);
      seen = [];
      if (route.method === 'GET' || route.method === 'DELETE') await s.call(route.method, url, { token: admin, query: PLAUSIBLE });
      else await s.call(route.method, url, { token: admin, body: PLAUSIBLE });
      const tables = [...new Set(seen.map(writtenTable).filter((t): t is string => t !== null && !BOOKKEEPING.has(t)))];
      seen = null;
      if (tables.length) offenders.push(`${route.method} ${route.url} → ${tables.join(', ')}`);
    }
    expect(offenders).toEqual([]);
    // The detector itself sees a write: a declared write, called the same way, is reported.
    seen = [];
    await s.call('POST', '/dev-api/api/Help/read', { token: admin, body: { helpId: 1 } }); // counts one view
    const written = seen.map(writtenTable).filter((t) => t !== null && !BOOKKEEPING.has(t));
    seen = null;
    expect(written.length).toBeGreaterThan(0);
  }, 300_000);
});

describe('the start-up check', () => {
  it('refuses to register an API route without a write declaration', async () => {
    const { default: fs } = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'zy-declared-'));
    const app = await buildApp({ config: loadConfig({}, { dataDir, logger: false, seed: false }), serveConsole: false });
    try {
      expect(() => app.get('/dev-api/test/undeclared', { config: { permission: 'login' } }, async () => ({}))).toThrow(
        '路由 /dev-api/test/undeclared 未声明是否写入（config.write: true | false）',
      );
      expect(() => app.post('/dev-api/test/money', { config: { permission: 'login', write: false, idempotent: true } }, async () => ({}))).toThrow(
        /idempotent/,
      );
    } finally {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
