import type { FlatRoute } from '@/router/types';

const normalise = (component: string) => component.replace(/^\//, '').replace(/\.(vue|tsx)$/, '');

/** The route of the user's own menu that shows a component (e.g. Examine/index), or undefined when they lack it. */
export function routeForComponent(routes: FlatRoute[], component: string): FlatRoute | undefined {
  const want = normalise(component);
  return routes.find((r) => normalise(r.component) === want);
}

/** A path with a query string built from plain values. */
export function withQuery(path: string, query: Record<string, string>): string {
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}
