import type { EntitySchema } from '@common/engine/types';
import { Result, Spin } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useLocation } from 'react-router';
import { useResourceDef } from '../registry';
import { baseType, type EnginePageProps } from '../resource';
import { EntityList } from './EntityList';

// A single-record screen is a form (RJSF, about 150 kB compressed): loaded only by the resources that are one, so a
// list page (most menu entries) does not download and compile the form engine.
const SingletonPage = lazy(() => import('./SingletonPage').then((m) => ({ default: m.SingletonPage })));
const singletonFallback = <Spin style={{ display: 'block', padding: 48 }} />;

/**
 * Search values a link opened the list with: `?status=0` (the home page's to-do links) for x-search properties, numbers
 * for numeric ones; other query keys are ignored.
 */
export function linkSearchOf(schema: EntitySchema, search: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const prop = schema.properties[name];
    if (!prop?.['x-search'] || name in (schema['x-filter'] ?? {}) || value === '') continue;
    const type = baseType(prop);
    out[name] = (type === 'integer' || type === 'number') && Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return Object.keys(out).length ? out : undefined;
}

/** The screen of one resource (from the registry the app provides): its list-page override when one is given, the single record's form for an x-singleton schema, else the generic list. */
export function ResourcePage({ name }: { name: string }) {
  const def = useResourceDef(name);
  const { search } = useLocation();
  const linkSearch = useMemo(() => (def ? linkSearchOf(def.schema, search) : undefined), [def, search]);
  const loader = def?.override.pages?.list;
  const Replacement = useMemo(() => (loader ? lazy<React.ComponentType<EnginePageProps>>(loader) : null), [loader]);
  if (!def) return <Result status="404" title="页面不存在" subTitle={`未知的资源：${name}`} />;
  if (Replacement)
    return (
      <Suspense fallback={<Spin style={{ display: 'block', padding: 48 }} />}>
        <Replacement resource={def} />
      </Suspense>
    );
  if (def.schema['x-singleton'])
    return (
      <Suspense fallback={singletonFallback}>
        <SingletonPage resource={def} />
      </Suspense>
    );
  // A different link (?status=…) opens the list afresh with it.
  return <EntityList key={search} resource={def} linkSearch={linkSearch} />;
}

export default ResourcePage;
