import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A dynamic import that is started once and remembers its module when it has arrived. */
export interface ModuleLoader<M> {
  (): Promise<M>;
  /** The module if it has been loaded already, else undefined. */
  loaded(): M | undefined;
}

export function moduleLoader<M>(load: () => Promise<M>): ModuleLoader<M> {
  let promise: Promise<M> | undefined;
  let value: M | undefined;
  const get = () => {
    promise ??= load().then(
      (m) => {
        value = m;
        return m;
      },
      (error: unknown) => {
        // Offline, or a new build replaced the chunk: the next call tries again.
        promise = undefined;
        throw error;
      },
    );
    return promise;
  };
  return Object.assign(get, { loaded: () => value });
}

/**
 * A thenable that calls back at once. React.lazy calls then() on what its loader returns and renders the component in
 * the same pass when the callback has already run; a promise, even a settled one, calls back later, so the first
 * render of every lazy component would suspend.
 */
function settled<T>(value: T): Promise<T> {
  const thenable = {
    status: 'fulfilled',
    value,
    // biome-ignore lint/suspicious/noThenProperty: React.lazy takes any thenable; this one calls back at once on purpose
    then(onFulfilled?: (v: T) => unknown) {
      onFulfilled?.(value);
      return thenable;
    },
  };
  return thenable as unknown as Promise<T>;
}

/**
 * React.lazy that does not suspend when its module has been fetched before (e.g. in the background while the user
 * looks at 首页, src/router/prefetchPages.tsx). Why it matters: a suspended page shows its loading fallback, and React
 * then holds the real page back until that fallback has been on screen for 300 ms (its fallback throttle) — most of a
 * first menu switch was spent waiting on that, with the code already there.
 */
export function readyLazy<M, P extends object>(loader: ModuleLoader<M>, pick: (m: M) => ComponentType<P>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const m = loader.loaded();
    if (m) return settled({ default: pick(m) });
    return loader().then((loaded) => ({ default: pick(loaded) }));
  });
}
