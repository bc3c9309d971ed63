import type { SidebarItem } from '@/router/types';
import type { Crumb } from './Navbar';

/** The chain of sidebar titles down to `active` (the page or its activeMenu), after 首页; the page itself last. */
export function breadcrumbs(items: readonly SidebarItem[], active: string, pageTitle: string | undefined): Crumb[] {
  const home: Crumb = { title: '首页', path: '/index' };
  if (active === '/index') return [{ title: '首页' }];
  const walk = (list: readonly SidebarItem[], trail: Crumb[]): Crumb[] | null => {
    for (const item of list) {
      const here = [...trail, { title: item.title, path: item.children?.length ? undefined : item.path }];
      if (item.key === active) return here;
      if (item.children) {
        const hit = walk(item.children, here);
        if (hit) return hit;
      }
    }
    return null;
  };
  const chain = walk(items, []) ?? [];
  const last = chain[chain.length - 1];
  // A hidden page highlighting another entry (activeMenu) adds its own title after that entry.
  if (pageTitle && last?.title !== pageTitle) chain.push({ title: pageTitle });
  return [home, ...chain];
}
