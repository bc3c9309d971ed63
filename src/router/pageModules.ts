import { moduleLoader } from './readyLazy';

/**
 * The schema engine's page (most menu entries are schema screens): one loader shared by the menu routes that render
 * it (componentRegistry.tsx) and by the background prefetch (prefetchPages.tsx), so a first visit after the prefetch
 * renders without suspending (readyLazy). The menu route's own view has its loader in menuViewModule.ts, apart: that
 * one is part of the sign-in page's code, and this one's list of chunks to preload must not be.
 */
export const enginePageModule = moduleLoader(() => import('@/engine/pages/ResourcePage'));
