import { Result, Spin } from 'antd';
import { lazy, Suspense, useMemo } from 'react';
import { useResourceDef } from '../registry';
import type { EnginePageProps } from '../resource';
import { EntityList } from './EntityList';

// A single-record screen is a form (RJSF, about 150 kB compressed): loaded only by the resources that are one, so a
// list page (most menu entries) does not download and compile the form engine.
const SingletonPage = lazy(() => import('./SingletonPage').then((m) => ({ default: m.SingletonPage })));
const singletonFallback = <Spin style={{ display: 'block', padding: 48 }} />;

/** The screen of one resource (from the registry the app provides): its list-page override when one is given, the single record's form for an x-singleton schema, else the generic list. */
export function ResourcePage({ name }: { name: string }) {
  const def = useResourceDef(name);
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
  return <EntityList resource={def} />;
}

export default ResourcePage;
