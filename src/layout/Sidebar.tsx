import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { SidebarItem } from '@/router/types';
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

/** Sidebar menu from the server's menu tree (spec §2.4): accordion, hidden items omitted, external links in a new tab. */
export function Sidebar({ items, theme, collapsed, active, onNavigate }: SidebarProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const [openKeys, setOpenKeys] = useState<string[]>(() => ancestorKeys(items, active) ?? []);
  const menuItems = useMemo(() => toItems([...items]), [items]);

  // Navigating elsewhere (tabs, breadcrumb) opens the group of the new page.
  useEffect(() => {
    const trail = ancestorKeys(items, active);
    if (trail?.length) setOpenKeys(trail);
  }, [items, active]);

  const onOpenChange = (keys: string[]) => {
    const latest = keys.find((k) => !openKeys.includes(k));
    // Accordion: opening a group closes the others, except the groups that contain it.
    setOpenKeys(latest ? (ancestorKeys(items, latest) ?? []).concat(latest) : keys);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = findItem(items, key);
    if (item?.external) {
      window.open(item.path, '_blank', 'noopener');
      return;
    }
    const target = item ? menuTarget(item) : key;
    if (target !== location.pathname + location.search) navigate(target);
    onNavigate?.();
  };

  return (
    <Menu
      mode="inline"
      theme={theme}
      items={menuItems}
      selectedKeys={[active]}
      {...(collapsed ? {} : { openKeys })}
      onOpenChange={onOpenChange}
      onClick={onClick}
      style={{ borderInlineEnd: 'none', background: 'transparent' }}
    />
  );
}
