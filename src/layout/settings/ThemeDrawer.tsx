import { CheckOutlined } from '@ant-design/icons';
import { App, Button, ColorPicker, Divider, Drawer, Switch, Tooltip, Typography } from 'antd';
import { memo } from 'react';
import { clearSettings, type LayoutSettings, normalizeHex, type SideTheme, saveSettings, THEME_PRESETS } from '@/utils/theme';
import { useLayoutSettings } from './SettingsContext';

/** Spec §9: theme drawer 300 px. */
export const THEME_DRAWER_WIDTH = 300;

type Switchable = 'topNav' | 'tagsView' | 'fixedHeader' | 'sidebarLogo' | 'dynamicTitle';

const SWITCHES: { key: Switchable; label: string }[] = [
  { key: 'topNav', label: '开启 TopNav' },
  { key: 'tagsView', label: '开启 Tags-Views' },
  { key: 'fixedHeader', label: '固定 Header' },
  { key: 'sidebarLogo', label: '显示 Logo' },
  { key: 'dynamicTitle', label: '动态标题' },
];

const SIDE_THEMES: { key: SideTheme; label: string; side: string }[] = [
  { key: 'theme-dark', label: '暗色侧边栏', side: '#001529' },
  { key: 'theme-light', label: '亮色侧边栏', side: '#fff' },
];

function ThemeSample({ side, selected, label, onClick }: { side: string; selected: boolean; label: string; onClick: () => void }) {
  return (
    <Tooltip title={label}>
      <button
        type="button"
        aria-label={label}
        aria-pressed={selected}
        onClick={onClick}
        style={{
          position: 'relative',
          width: 52,
          height: 40,
          padding: 0,
          marginRight: 12,
          cursor: 'pointer',
          border: '1px solid #e4e7ed',
          borderRadius: 4,
          overflow: 'hidden',
          background: '#f0f2f5',
          boxShadow: '0 1px 2.5px 0 rgba(0,0,0,.18)',
        }}
      >
        <span style={{ position: 'absolute', left: 0, top: 0, bottom: 0, width: '33%', background: side }} />
        <span style={{ position: 'absolute', left: '33%', right: 0, top: 0, height: '25%', background: '#fff' }} />
        {selected && <CheckOutlined style={{ position: 'absolute', right: 6, bottom: 6, color: 'var(--zy-primary, #409EFF)', fontWeight: 700 }} />}
      </button>
    </Tooltip>
  );
}

/**
 * 布局设置 drawer (spec §2.4): sidebar theme, theme colour (8 presets + picker), layout switches, save / reset.
 * Memoised: the frame renders on every page switch, the closed drawer need not.
 */
export const ThemeDrawer = memo(function ThemeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { settings, update } = useLayoutSettings();
  const { message } = App.useApp();

  const save = () => {
    const hide = message.loading('正在保存到本地，请稍候...', 0);
    saveSettings(settings);
    window.setTimeout(hide, 1000);
  };

  const reset = () => {
    message.loading('正在清除设置缓存并刷新，请稍候...', 0);
    clearSettings();
    window.setTimeout(() => window.location.reload(), 1000);
  };

  const setTheme = (hex: string) => {
    const colour = normalizeHex(hex);
    if (colour) update({ theme: colour });
  };
  const current = normalizeHex(settings.theme);

  return (
    <Drawer title="布局设置" placement="right" width={THEME_DRAWER_WIDTH} open={open} onClose={onClose} className="zy-theme-drawer">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        主题风格设置
      </Typography.Title>
      <div style={{ display: 'flex' }}>
        {SIDE_THEMES.map((t) => (
          <ThemeSample key={t.key} side={t.side} label={t.label} selected={settings.sideTheme === t.key} onClick={() => update({ sideTheme: t.key })} />
        ))}
      </div>
      <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', margin: '16px 0 8px' }}>
        <span>主题颜色</span>
        <ColorPicker value={settings.theme} disabledAlpha onChangeComplete={(c) => setTheme(c.toHexString())} size="small" aria-label="自定义主题颜色" />
      </div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
        {THEME_PRESETS.map((hex) => {
          const selected = current === normalizeHex(hex);
          return (
            <button
              key={hex}
              type="button"
              className="zy-swatch"
              aria-label={`主题颜色 ${hex}`}
              aria-pressed={selected}
              title={hex}
              onClick={() => setTheme(hex)}
              style={{
                width: 24,
                height: 24,
                padding: 0,
                borderRadius: 4,
                cursor: 'pointer',
                background: hex,
                border: selected ? '2px solid rgba(0,0,0,.45)' : '1px solid rgba(0,0,0,.1)',
                display: 'inline-flex',
                alignItems: 'center',
                justifyContent: 'center',
                color: '#fff',
              }}
            >
              {selected && <CheckOutlined style={{ fontSize: 12 }} />}
            </button>
          );
        })}
      </div>
      <Divider />
      <Typography.Title level={5}>系统布局配置</Typography.Title>
      {SWITCHES.map((s) => (
        <div key={s.key} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', padding: '8px 0' }}>
          <span>{s.label}</span>
          <Switch aria-label={s.label} checked={settings[s.key]} onChange={(checked) => update({ [s.key]: checked } as Partial<LayoutSettings>)} />
        </div>
      ))}
      <Divider />
      <div style={{ display: 'flex', gap: 8 }}>
        <Button type="primary" onClick={save}>
          保存配置
        </Button>
        <Button onClick={reset}>重置配置</Button>
      </div>
    </Drawer>
  );
});
