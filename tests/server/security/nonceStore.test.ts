import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalNonceStore } from '../../../server/security/nonces.js';

/**
 * The embedded SQLite's seen-set (server/security/nonces.ts): decided in memory, written in one batch per event-loop
 * turn before a claim answers, and never written into a transaction the engine has open on the same connection.
 */
describe('LocalNonceStore', () => {
  let dir: string;
  let sqlite: SQLite.Database;
  const rows = () => sqlite.prepare('select nonce, expires_at as expiresAt from sys_request_nonce order by nonce').all();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zy-nonce-store-'));
    sqlite = new SQLite(path.join(dir, 'n.sqlite'));
    sqlite.exec('create table sys_request_nonce (nonce text primary key, expires_at integer not null)');
  });
  afterEach(() => {
    sqlite.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('claims a key once; the row is written before the claim answers', async () => {
    const store = new LocalNonceStore(sqlite, 1000);
    const both = await Promise.all([store.claim('sig:a', 5000, 1000), store.claim('sig:a', 5000, 1000)]);
    expect(both.sort()).toEqual([false, true]);
    expect(rows()).toEqual([{ nonce: 'sig:a', expiresAt: 5000 }]);
  });

  it('a released key may be claimed again, and its row is gone', async () => {
    const store = new LocalNonceStore(sqlite, 1000);
    expect(await store.claim('dup:1:POST:x', 2000, 1000)).toBe(true);
    await store.release('dup:1:POST:x');
    expect(await store.claim('dup:1:POST:y', 2000, 1000)).toBe(true); // a later batch carries the delete
    expect(rows()).toEqual([{ nonce: 'dup:1:POST:y', expiresAt: 2000 }]);
    expect(await store.claim('dup:1:POST:x', 2000, 1000)).toBe(true);
  });

  it('an expired key is free again', async () => {
    const store = new LocalNonceStore(sqlite, 1000);
    expect(await store.claim('sig:b', 2000, 1000)).toBe(true);
    expect(await store.claim('sig:b', 9000, 2000)).toBe(false);
    expect(await store.claim('sig:b', 9000, 2001)).toBe(true);
    expect(rows()).toEqual([{ nonce: 'sig:b', expiresAt: 9000 }]);
  });

  it('a new store on the same file refuses what the last one accepted (restart)', async () => {
    const long = `sig:${'x'.repeat(300)}`; // kept as its hash
    expect(await new LocalNonceStore(sqlite, 1000).claim(long, 5000, 1000)).toBe(true);
    const restarted = new LocalNonceStore(sqlite, 1500);
    expect(await restarted.claim(long, 5000, 1500)).toBe(false);
    expect(await restarted.claim('sig:other', 5000, 1500)).toBe(true);
  });

  it('waits for a transaction open on the connection and stays out of it (a rollback keeps the claim)', async () => {
    const store = new LocalNonceStore(sqlite, 1000);
    sqlite.exec('begin');
    let answered = false;
    const claim = store.claim('sig:c', 5000, 1000).then((v) => {
      answered = true;
      return v;
    });
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(answered).toBe(false);
    sqlite.exec('rollback');
    expect(await claim).toBe(true);
    expect(rows()).toEqual([{ nonce: 'sig:c', expiresAt: 5000 }]);
  });
});
