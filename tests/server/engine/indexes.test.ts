import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../../common/engine/types.js';
import { DEFAULT_SCHEMAS_DIR } from '../../../server/engine/index.js';
import { schemaFiles } from '../../../server/engine/metaSchema.js';
import type { Q } from '../../../server/engine/store.js';
import { columnIndexes } from '../../../server/engine/sync.js';
import { backends, startServer, type TestServer } from '../harness.js';

/**
 * The schema engine's indexes (server/engine/sync.ts): a column gets at most one single-column index. A unique
 * column (x-unique, e.g. sys_config.config_key) is served by its unique index alone; an older database that still
 * has the redundant plain ix_ index loses it on the next start; a plain index that already exists under another name
 * is not duplicated.
 */

/** The tables of the schemas the engine keeps (schemas/<module>/*.json); a module-served schema has no engine table. */
const entityTables = (): string[] =>
  schemaFiles(DEFAULT_SCHEMAS_DIR)
    .map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as EntitySchema)
    .filter((s) => !s['x-endpoint'].module && s['x-table'])
    .map((s) => s['x-table'] as string);

describe.each(backends)('schema engine indexes (%s)', (backend) => {
  let s: TestServer;
  const k = () => s.app.db.kysely.withoutPlugins() as unknown as Q;
  const indexesOf = (table: string) => columnIndexes(k(), backend, table);
  /** Index names by column, for the columns that have more than one. */
  const doubled = async (table: string) => {
    const by = new Map<string, string[]>();
    for (const i of await indexesOf(table)) by.set(i.column, [...(by.get(i.column) ?? []), i.name]);
    return [...by].filter(([, names]) => names.length > 1);
  };

  beforeAll(async () => {
    s = await startServer(backend);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('gives config_key exactly one index, the unique one, and keeps the sort indexes of the other columns', async () => {
    const onKey = (await indexesOf('sys_config')).filter((i) => i.column === 'config_key');
    expect(onKey).toEqual([expect.objectContaining({ name: 'ux_sys_config_config_key', unique: true })]);
    const names = (await indexesOf('sys_config')).map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['ix_sys_config_config_name', 'ix_sys_config_create_time']));
    // The unique index still refuses a second row with the same key.
    await expect(
      sql`insert into sys_config (config_name, config_key, config_value, config_type, create_time) values ('x', 'sys.index.skinName', 'y', 'N', 0)`.execute(
        k(),
      ),
    ).rejects.toThrow();
  });

  it('never leaves two single-column indexes on one column of any schema table', async () => {
    for (const table of entityTables()) expect(await doubled(table), table).toEqual([]);
  });

  it('drops the redundant plain index an older version created next to the unique one, and does not duplicate an equivalent index', async () => {
    // An older database: config_key carried both indexes; dict_name's sort index exists under another name.
    const collate = backend === 'postgres' ? sql` collate "C"` : sql``;
    await sql`create index ix_sys_config_config_key on sys_config (config_key${collate})`.execute(k());
    await sql`drop index ix_sys_dict_type_dict_name`.execute(k());
    await sql`create index legacy_dict_name on sys_dict_type (dict_name${collate})`.execute(k());
    expect((await indexesOf('sys_config')).filter((i) => i.column === 'config_key')).toHaveLength(2);

    await s.restart();

    expect((await indexesOf('sys_config')).filter((i) => i.column === 'config_key').map((i) => i.name)).toEqual(['ux_sys_config_config_key']);
    expect((await indexesOf('sys_dict_type')).filter((i) => i.column === 'dict_name').map((i) => i.name)).toEqual(['legacy_dict_name']);
    for (const table of entityTables()) expect(await doubled(table), table).toEqual([]);
    // And the API still lists configs sorted by the key.
    const token = await s.login('admin', 'admin123');
    const list = await s.call<unknown>('GET', '/dev-api/system/config/list', { token, query: { orderByColumn: 'configKey', isAsc: 'ascending' } });
    expect(list.body.code).toBe(200);
    const keys = (list.body.rows as Array<{ configKey: string }>).map((r) => r.configKey);
    expect(keys).toEqual([...keys].sort());
  });
});
