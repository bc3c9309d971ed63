import { useEffect, useState } from 'react';
import { type DictData, getDictData } from '@/api/engine';

/**
 * Dictionaries (spec §3 "Dictionary entry", §7.5): GET /dev-api/system/dict/data/type/{type}, turned into
 * { label, value, elTagType, elTagClass } as RuoYi's useDict does. Each type is fetched once per page load and kept in
 * memory; concurrent users of one type share the one call. A failed fetch is forgotten so the next use retries.
 */
export interface DictOption {
  label: string;
  value: string;
  /** listClass: default / primary / success / info / warning / danger (or empty). */
  elTagType: string;
  /** cssClass: extra class names for the tag. */
  elTagClass: string;
  raw: DictData;
}

const cache = new Map<string, DictOption[]>();
const pending = new Map<string, Promise<DictOption[]>>();

function toOptions(rows: DictData[]): DictOption[] {
  return [...rows]
    .sort((a, b) => Number(a.dictSort ?? 0) - Number(b.dictSort ?? 0))
    .map((d) => ({ label: d.dictLabel, value: String(d.dictValue), elTagType: d.listClass ?? '', elTagClass: d.cssClass ?? '', raw: d }));
}

/** The options of one dictionary type, from the cache or one shared call. */
export function loadDict(type: string): Promise<DictOption[]> {
  const hit = cache.get(type);
  if (hit) return Promise.resolve(hit);
  let call = pending.get(type);
  if (!call) {
    call = getDictData(type)
      .then((rows) => {
        const options = toOptions(rows);
        cache.set(type, options);
        return options;
      })
      .finally(() => pending.delete(type));
    pending.set(type, call);
  }
  return call;
}

/** The cached options of a type, if it has been loaded. */
export function cachedDict(type: string): DictOption[] | undefined {
  return cache.get(type);
}

/** Forget one type (after editing its entries) or all of them. */
export function clearDictCache(type?: string): void {
  if (type) cache.delete(type);
  else cache.clear();
}

/** The options of a dictionary type ([] while loading or when the type is empty/unknown). */
export function useDict(type: string | undefined): DictOption[] {
  const [options, setOptions] = useState<DictOption[]>(() => (type ? (cache.get(type) ?? []) : []));
  useEffect(() => {
    if (!type) {
      setOptions([]);
      return;
    }
    let live = true;
    const hit = cache.get(type);
    if (hit) {
      setOptions(hit);
      return;
    }
    loadDict(type)
      .then((o) => live && setOptions(o))
      .catch(() => live && setOptions([]));
    return () => {
      live = false;
    };
  }, [type]);
  return options;
}

/** The label of a value in a dictionary (the value itself when unknown). */
export function dictLabel(options: DictOption[], value: unknown): string {
  const v = value === null || value === undefined ? '' : String(value);
  return options.find((o) => o.value === v)?.label ?? v;
}
