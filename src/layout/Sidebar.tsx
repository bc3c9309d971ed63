import { Menu, type MenuProps } from 'antd';
import { memo, useCallback, useEffect, useMemo, useState } from 'react';
import type { SidebarItem } from '@/router/types';
import { useStableNavigate } from '@/router/useStableNavigate';
import { menuIcon } from './menuIcons';

type Item = Required<MenuProps>['items'][number];

function toItems(items: SidebarItem[]): Item[] {
  return items
    .filter((i) => !i.hidden)
    .map((i) => ({
      key: i.key,
      icon: menuIcon(i.icon),
      label: i.title,
      children: i.children?.length ? toItems(i.children) : undefined,
    }));
}

export function findItem(items: readonly SidebarItem[], key: string): SidebarItem | undefined {
  for (const i of items) {
    if (i.key === key) return i;
    const hit = i.children && findItem(i.children, key);
    if (hit) return hit;
  }
  return undefined;
}

/** Keys of the groups above a path, so the active page's group is open (accordion: only that chain). */
export function ancestorKeys(items: readonly SidebarItem[], path: string, trail: string[] = []): string[] | null {
  for (const i of items) {
    if (i.key === path) return trail;
    if (i.children) {
      const hit = ancestorKeys(i.children, path, [...trail, i.key]);
      if (hit) return hit;
    }
  }
  return null;
}

/** Where a menu entry leads: its path plus its default query (RuoYi route query). */
export function menuTarget(item: SidebarItem): string {
  if (!item.query) return item.path;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(item.query)) params.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  return `${item.path}?${params.toString()}`;
}

export interface SidebarProps {
  items: readonly SidebarItem[];
  theme: 'dark' | 'light';
  collapsed: boolean;
  /** The entry to highlight: meta.activeMenu of the current page, else its path. */
  active: string;
  /** Called after navigating (the mobile drawer closes itself). */
  onNavigate?: () => void;
}

const sameKeys = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k, i) => k === b[i]);
const MENU_STYLE = { borderInlineEnd: 'none', background: 'transparent' } as const;

/**
 * Sidebar menu from the server's menu tree (spec §2.4): accordion, hidden items omitted, external links in a new tab.
 *
 * Kept cheap on a page switch (the menu is a few hundred antd components): memoised with stable handlers and a
 * navigate that ignores the location, so it renders once per switch (its highlight), and its open groups change
 * only when the new page lies in another group.
 */
export const Sidebar = memo(function Sidebar({ items, theme, collapsed, active, onNavigate }: SidebarProps) {
  const navigate = useStableNavigate();
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestorKeys(items, active) ?? []);
  const menuItems = useMemo(() => toItems([...items]), [items]);
  const selectedKeys = useMemo(() => [active], [active]);

  // Navigating elsewhere (tabs, breadcrumb) opens the group of the new page.
  useEffect(() => {
    const trail = ancestorKeys(items, active);
    if (trail?.length) setOpenKeys((keys) => (sameKeys(keys, trail) ? keys : trail));
  }, [items, active]);

  const onOpenChange = useCallback(
    (keys: string[]) =>
      setOpenKeys((open) => {
        const latest = keys.find((k) => !open.includes(k));
        // Accordion: opening a group closes the others, except the groups that contain it.
        return latest ? (ancestorKeys(items, latest) ?? []).concat(latest) : keys;
      }),
    [items],
  );

  const onClick = useCallback<NonNullable<MenuProps['onClick']>>(
    ({ key }) => {
      const item = findItem(items, key);
      if (item?.external) {
        window.open(item.path, '_blank', 'noopener');
        return;
      }
      const target = item ? menuTarget(item) : key;
      if (target !== window.location.pathname + window.location.search) navigate(target);
      onNavigate?.();
    },
    [items, navigate, onNavigate],
  );

  return (
    <Menu
      mode="inline"
      theme={theme}
      items={menuItems}
      selectedKeys={selectedKeys}
      {...(collapsed ? {} : { openKeys })}
      onOpenChange={onOpenChange}
      onClick={onClick}
      style={MENU_STYLE}
    />
  );
});
