import { SearchOutlined } from '@ant-design/icons';
import { Button, Empty, Input, Popover } from 'antd';
import { useMemo, useState } from 'react';
import { MENU_ICON_NAMES, menuIcon } from '@/layout/menuIcons';

/**
 * 菜单图标 picker (RuoYi components/IconSelect): a read-only input showing the chosen icon; a click opens a panel with
 * a search box (请输入图标名称) over a grid of the icons the sidebar can draw (layout/menuIcons.tsx). Picking one
 * closes the panel; the clear button empties the value.
 */
export interface IconSelectProps {
  id?: string;
  value?: string | null;
  onChange?: (name: string | undefined) => void;
  disabled?: boolean;
  placeholder?: string;
}

/** Icon names containing the keyword (case-insensitive), in the sidebar's order. */
export function filterIcons(keyword: string, names: readonly string[] = MENU_ICON_NAMES): string[] {
  const k = keyword.trim().toLowerCase();
  return names.filter((n) => n.toLowerCase().includes(k));
}

/** A stored icon name as the sidebar shows it; nothing for none (RuoYi stores '#'). */
export function IconView({ name }: { name: unknown }) {
  if (typeof name !== 'string' || !name || name === '#') return null;
  return (
    <span className="icon-view" role="img" aria-label={`图标 ${name}`} title={name}>
      {menuIcon(name)}
    </span>
  );
}

export function IconSelect({ id, value, onChange, disabled, placeholder = '点击选择图标' }: IconSelectProps) {
  const [open, setOpen] = useState(false);
  const [keyword, setKeyword] = useState('');
  const names = useMemo(() => filterIcons(keyword), [keyword]);
  const current = value && value !== '#' ? value : '';

  const panel = (
    <div className="icon-select-panel" style={{ width: 440 }}>
      <Input
        allowClear
        autoFocus
        placeholder="请输入图标名称"
        prefix={<SearchOutlined />}
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        aria-label="请输入图标名称"
      />
      {names.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的图标" />
      ) : (
        <div
          role="listbox"
          aria-label="图标列表"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 4, marginTop: 8, maxHeight: 260, overflowY: 'auto' }}
        >
          {names.map((name) => (
            <Button
              key={name}
              role="option"
              aria-selected={name === current}
              aria-label={name}
              type={name === current ? 'primary' : 'text'}
              icon={menuIcon(name)}
              style={{ justifyContent: 'flex-start', overflow: 'hidden' }}
              onClick={() => {
                onChange?.(name);
                setOpen(false);
                setKeyword('');
              }}
            >
              {name}
            </Button>
          ))}
        </div>
      )}
    </div>
  );

  return (
    <Popover open={open && !disabled} onOpenChange={(o) => setOpen(o)} trigger="click" placement="bottomLeft" content={panel} destroyOnHidden>
      <Input
        id={id}
        readOnly
        value={current}
        disabled={disabled}
        placeholder={placeholder}
        prefix={current ? menuIcon(current) : <SearchOutlined />}
        allowClear
        onChange={(e) => {
          if (!e.target.value) onChange?.(undefined);
        }}
        style={{ cursor: disabled ? undefined : 'pointer' }}
      />
    </Popover>
  );
}

export default IconSelect;
