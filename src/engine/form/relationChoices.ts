import { useList } from '@refinedev/core';
import { useMemo } from 'react';
import { useResourceDef } from '../registry';

/**
 * The records of a related resource as choices: used by the form's select widget and by the list's search form.
 * A module of its own (no RJSF import), so a list page can offer the choices without loading the form engine.
 */
export type Choice = { label: string; value: string | number };
export type Relation = { schema: string; label: string; key?: string };

/** The records of a related resource as choices (value = relation key or primary key, label = relation label). */
export function useRelationChoices(relation: Relation | undefined): Choice[] {
  const target = useResourceDef(relation?.schema);
  const { result } = useList({ resource: relation?.schema ?? '', pagination: { mode: 'off' }, queryOptions: { enabled: Boolean(target) } });
  return useMemo(() => {
    if (!relation || !target) return [];
    const key = relation.key ?? target.primaryKey;
    return (result?.data ?? []).map((r) => ({ label: String(r[relation.label] ?? r[key]), value: r[key] as string | number }));
  }, [result?.data, relation, target]);
}
