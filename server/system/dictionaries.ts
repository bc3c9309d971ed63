import type { ModuleDict } from '../engine/moduleDicts.js';

/** One entry of a dictionary: the stored value, the label 字典管理 starts with, and its list class (tag colour). */
export type DictEntry = [value: string, label: string, listClass?: string];

/**
 * Declares one dictionary (sys_dict_type + its sys_dict_data rows) of a module's schemas, so a module's dicts.ts states
 * only its data, one dictionary a line. The entries are written in the order given (dict_sort 1, 2, …; the first is
 * the default); a missing list class is stored empty. The module adds them at start with the engine's
 * ensureModuleDicts, which also writes the name as remark "<name>列表".
 */
export function dictionary(type: string, name: string, ...entries: DictEntry[]): ModuleDict {
  return { type, name, entries: entries.map(([value, label, listClass = '']) => [value, label, listClass]) };
}
