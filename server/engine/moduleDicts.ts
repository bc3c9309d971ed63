import { sql } from 'kysely';
import type { EngineEnv } from './context.js';
import { prepareSeed } from './records.js';
import { insertRow } from './store.js';

/** A dictionary a module's schemas use (x-dict): type, name, and [value, label, listClass] entries in order. */
export interface ModuleDict {
  type: string;
  name: string;
  entries: Array<[value: string, label: string, listClass: string]>;
}

/**
 * Adds a module's dictionaries at start when missing — also to a database made before the module existed, where the
 * x-seed of sys_dict_type / sys_dict_data no longer runs — and never changes them afterwards (an administrator may
 * relabel them in 字典管理). Each dictionary is written whole in one transaction.
 */
export async function ensureModuleDicts(env: EngineEnv, dicts: readonly ModuleDict[]): Promise<void> {
  const typeEntity = env.entities.get('sys_dict_type');
  const dataEntity = env.entities.get('sys_dict_data');
  if (!typeEntity || !dataEntity) return;
  const have = await sql<{ dict_type: string }>`select dict_type from sys_dict_type`.execute(env.k);
  const existing = new Set(have.rows.map((r) => r.dict_type));
  for (const d of dicts) {
    if (existing.has(d.type)) continue;
    try {
      await env.k.transaction().execute(async (trx) => {
        await insertRow(trx, typeEntity, prepareSeed(typeEntity, { dictName: d.name, dictType: d.type, status: '0', remark: `${d.name}列表` }));
        for (const [i, [value, label, listClass]] of d.entries.entries()) {
          const row = { dictSort: i + 1, dictLabel: label, dictValue: value, dictType: d.type, listClass, isDefault: i === 0 ? 'Y' : 'N', status: '0' };
          await insertRow(trx, dataEntity, prepareSeed(dataEntity, row));
        }
      });
    } catch (err) {
      // Another server starting at the same moment added it first (unique dict_type): nothing to do.
      const again = await sql<{ n: number }>`select count(*) as n from sys_dict_type where dict_type = ${d.type}`.execute(env.k);
      if (!Number(again.rows[0]?.n)) throw err;
    }
  }
}
