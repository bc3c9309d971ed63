import { Menu, type MenuProps } from 'antd';
import { memo, useMemo } from 'react';
import type { SidebarItem } from '@/router/types';
import { useStableNavigate } from '@/router/useStableNavigate';
import { menuIcon } from '../menuIcons';
import { menuTarget } from '../Sidebar';
import { useBodyWidth } from '../useDevice';
import { MORE_MENU_LABEL, splitTopNav } from './visibleCount';

const MORE_KEY = '__more__';

/** The top-level entry that contains `path` (or is it). */
export function topKeyOf(items: readonly SidebarItem[], path: string): string | undefined {
  const contains = (i: SidebarItem): boolean => i.key === path || Boolean(i.children?.some(contains));
  return items.find(contains)?.key;
}

export interface TopNavProps {
  items: readonly SidebarItem[];
  /** The chosen top entry, whose children the sidebar shows. */
  activeKey: string | undefined;
  onSelect: (key: string) => void;
}

/**
 * Optional top navigation (spec §2.4): the top-level entries in the header, as many as visibleNumber(body width)
 * allows (recomputed on resize); the rest under 更多菜单. An entry with children shows them in the sidebar,
 * a page without children is opened, an external link opens in a new tab.
 */
// Memoised with a navigate that ignores the location: a page switch inside the same top entry does not render it.
export const TopNav = memo(function TopNav({ items, activeKey, onSelect }: TopNavProps) {
  const navigate = useStableNavigate();
  const width = useBodyWidth();
  const shown = useMemo(() => items.filter((i) => !i.hidden), [items]);
  const { visible, more } = splitTopNav(shown, width);

  const menuItems: Required<MenuProps>['items'] = visible.map((i) => ({ key: i.key, icon: menuIcon(i.icon), label: i.title }));
  if (more.length) {
    menuItems.push({ key: MORE_KEY, label: MORE_MENU_LABEL, children: more.map((i) => ({ key: i.key, icon: menuIcon(i.icon), label: i.title })) });
  }

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = shown.find((i) => i.key === key);
    if (!item) return;
    if (item.external) {
      window.open(item.path, '_blank', 'noopener');
      return;
    }
    if (item.children?.length) onSelect(item.key);
    else {
      onSelect(item.key);
      navigate(menuTarget(item));
    }
  };

  return (
    <Menu
      mode="horizontal"
      disabledOverflow
      items={menuItems}
      selectedKeys={activeKey ? [activeKey] : []}
      onClick={onClick}
      // One row, always: the entries past visibleNumber are under 更多菜单, and whatever still does not fit is clipped
      // rather than wrapped onto a second row over the tab bar.
      className="zy-top-nav"
      style={{
        flex: '1 1 auto',
        minWidth: 0,
        display: 'flex',
        flexWrap: 'nowrap',
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        height: 48,
        borderBottom: 'none',
        lineHeight: '48px',
        background: 'transparent',
      }}
    />
  );
});
