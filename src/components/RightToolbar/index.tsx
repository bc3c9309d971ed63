import { AppstoreOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Space, Tooltip } from 'antd';
import { useCallback, useState } from 'react';

/**
 * The column show/hide toolbar of list screens (RuoYi right-toolbar, spec §2.4): 显示/隐藏搜索, 刷新 and 显示/隐藏列.
 * Column choices are kept per screen in localStorage (useColumnVisibility).
 */
export interface ToolbarColumn {
  key: string;
  title: string;
}

export interface RightToolbarProps {
  showSearch?: boolean;
  onToggleSearch?: () => void;
  onRefresh?: () => void;
  columns?: ToolbarColumn[];
  hidden?: string[];
  onHiddenChange?: (hidden: string[]) => void;
}

export function RightToolbar({ showSearch, onToggleSearch, onRefresh, columns, hidden = [], onHiddenChange }: RightToolbarProps) {
  const searchLabel = showSearch ? '隐藏搜索' : '显示搜索';
  const panel = columns && (
    <Checkbox.Group
      style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
      value={columns.filter((c) => !hidden.includes(c.key)).map((c) => c.key)}
      onChange={(checked) => onHiddenChange?.(columns.filter((c) => !checked.includes(c.key)).map((c) => c.key))}
      options={columns.map((c) => ({ label: c.title, value: c.key }))}
    />
  );
  return (
    <Space size={8} className="right-toolbar">
      {onToggleSearch && (
        <Tooltip title={searchLabel}>
          <Button shape="circle" icon={<SearchOutlined />} aria-label={searchLabel} onClick={onToggleSearch} />
        </Tooltip>
      )}
      {onRefresh && (
        <Tooltip title="刷新">
          <Button shape="circle" icon={<ReloadOutlined />} aria-label="刷新" onClick={onRefresh} />
        </Tooltip>
      )}
      {columns && columns.length > 0 && (
        <Popover trigger="click" placement="bottomRight" title="显示/隐藏列" content={panel}>
          <Tooltip title="显示/隐藏列">
            <Button shape="circle" icon={<AppstoreOutlined />} aria-label="显示/隐藏列" />
          </Tooltip>
        </Popover>
      )}
    </Space>
  );
}

const storageKey = (scope: string) => `zy-hidden-columns:${scope}`;

function readHidden(scope: string): string[] {
  try {
    const raw = localStorage.getItem(storageKey(scope));
    const parsed = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

/** Hidden column keys of one screen, remembered in localStorage across reloads. */
export function useColumnVisibility(scope: string): [string[], (hidden: string[]) => void] {
  const [hidden, setHidden] = useState<string[]>(() => readHidden(scope));
  const update = useCallback(
    (next: string[]) => {
      setHidden(next);
      try {
        localStorage.setItem(storageKey(scope), JSON.stringify(next));
      } catch {
        // Private mode or a full quota: the choice lasts until reload.
      }
    },
    [scope],
  );
  return [hidden, update];
}
