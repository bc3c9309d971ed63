import { moduleLoader } from './readyLazy';

/** The menu route's view (MenuView.tsx): one loader for the routes (AppRoutes.tsx) and the background prefetch. */
export const menuViewModule = moduleLoader(() => import('./MenuView'));
