import { CloseOutlined } from '@ant-design/icons';
import { theme as antdTheme, Dropdown, type MenuProps } from 'antd';
import { type MouseEvent, memo, useEffect, useRef, useState } from 'react';
import { useStableNavigate } from '@/router/useStableNavigate';
import type { TagView } from './tagsModel';
import type { CloseAction } from './useTags';

/** Context menu entries (RuoYi tags-view), word for word. */
export const TAG_MENU: { key: 'refresh' | CloseAction; label: string }[] = [
  { key: 'refresh', label: '刷新页面' },
  { key: 'current', label: '关闭当前' },
  { key: 'others', label: '关闭其他' },
  { key: 'left', label: '关闭左侧' },
  { key: 'right', label: '关闭右侧' },
  { key: 'all', label: '全部关闭' },
];

export interface TagsViewProps {
  visited: readonly TagView[];
  activePath: string;
  onClose: (action: CloseAction, view: TagView) => void;
  onRefresh: (view: TagView) => void;
}

/**
 * Tag bar of visited pages (spec §2.4): click opens, middle-click or × closes, right-click opens the context menu.
 * Memoised with a navigate that ignores the location, so a page switch renders it once.
 */
export const TagsView = memo(function TagsView({ visited, activePath, onClose, onRefresh }: TagsViewProps) {
  const navigate = useStableNavigate();
  const { token } = antdTheme.useToken();
  const [menuFor, setMenuFor] = useState<string | null>(null);
  const bar = useRef<HTMLDivElement>(null);

  // The active tab is always in view: opening a page from the menu (or closing tabs) scrolls the bar to it. Only the
  // bar scrolls (scrollIntoView would also move the page).
  useEffect(() => {
    const el = bar.current;
    if (!el || visited.length === 0) return;
    const tab = [...el.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => t.dataset.path === activePath);
    if (tab) scrollBarTo(el, tab);
  }, [activePath, visited.length]);

  // A mouse wheel scrolls the bar sideways (it has no vertical scroll of its own). Native listener: React's wheel
  // handler is passive and could not keep the page from scrolling as well.
  useEffect(() => {
    const el = bar.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (el.scrollWidth <= el.clientWidth) return;
      const delta = Math.abs(e.deltaX) > Math.abs(e.deltaY) ? e.deltaX : e.deltaY;
      if (delta === 0) return;
      e.preventDefault();
      el.scrollLeft += delta;
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const itemsFor = (view: TagView, index: number): MenuProps['items'] => {
    const closable = (v: TagView) => !v.affix;
    const disabled: Record<string, boolean> = {
      refresh: view.path !== activePath,
      current: Boolean(view.affix),
      others: !visited.some((v) => v.path !== view.path && closable(v)),
      left: !visited.slice(0, index).some(closable),
      right: !visited.slice(index + 1).some(closable),
      all: !visited.some(closable),
    };
    return TAG_MENU.map((m) => ({ key: m.key, label: m.label, disabled: disabled[m.key] }));
  };

  const onMenu = (view: TagView, key: string) => {
    setMenuFor(null);
    if (key === 'refresh') onRefresh(view);
    else onClose(key as CloseAction, view);
  };

  return (
    <div
      ref={bar}
      className="zy-tags-view"
      role="tablist"
      aria-label="已打开的页面"
      style={{
        height: 34,
        display: 'flex',
        alignItems: 'center',
        gap: 5,
        padding: '0 10px',
        width: '100%',
        minWidth: 0,
        overflowX: 'auto',
        overflowY: 'hidden',
        whiteSpace: 'nowrap',
        background: '#fff',
        borderBottom: '1px solid #d8dce5',
        boxShadow: '0 1px 3px 0 rgba(0,0,0,.12), 0 0 3px 0 rgba(0,0,0,.04)',
      }}
    >
      {visited.map((view, index) => {
        const active = view.path === activePath;
        return (
          <Dropdown
            key={view.path}
            trigger={['contextMenu']}
            open={menuFor === view.path}
            onOpenChange={(open) => setMenuFor(open ? view.path : null)}
            menu={{ items: itemsFor(view, index), onClick: ({ key }) => onMenu(view, key) }}
          >
            <span
              role="tab"
              aria-selected={active}
              tabIndex={0}
              className={`zy-tag${active ? ' zy-tag-active' : ''}`}
              data-path={view.path}
              onClick={() => {
                if (!active) navigate(view.fullPath);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !active) navigate(view.fullPath);
              }}
              onMouseDown={(e: MouseEvent) => {
                // Middle-click closes (the default would start auto-scroll).
                if (e.button === 1) e.preventDefault();
              }}
              onAuxClick={(e: MouseEvent) => {
                if (e.button === 1 && !view.affix) onClose('current', view);
              }}
              style={{
                flex: 'none',
                display: 'inline-flex',
                alignItems: 'center',
                gap: 4,
                height: 26,
                lineHeight: '26px',
                padding: '0 8px',
                fontSize: 12,
                cursor: 'pointer',
                border: `1px solid ${active ? token.colorPrimary : '#d8dce5'}`,
                background: active ? token.colorPrimary : '#fff',
              }}
            >
              {active && <span style={{ width: 8, height: 8, borderRadius: '50%', background: '#fff', display: 'inline-block' }} />}
              {view.title}
              {!view.affix && (
                <CloseOutlined
                  aria-label={`关闭 ${view.title}`}
                  style={{ fontSize: 10 }}
                  onClick={(e) => {
                    e.stopPropagation();
                    onClose('current', view);
                  }}
                />
              )}
            </span>
          </Dropdown>
        );
      })}
    </div>
  );
});

/** Scrolls the bar (not the page) just enough to show the tab, with a little room around it. */
export function scrollBarTo(bar: HTMLElement, tab: HTMLElement, margin = 10): void {
  const barBox = bar.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  if (tabBox.left < barBox.left + margin) bar.scrollLeft -= barBox.left + margin - tabBox.left;
  else if (tabBox.right > barBox.right - margin) bar.scrollLeft += tabBox.right - (barBox.right - margin);
}
