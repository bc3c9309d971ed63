/**
 * Theme colour and layout settings (spec §2.4 theme drawer, §3 Settings, §9 theme constants).
 * Shade generation follows RuoYi's getLightColor / getDarkColor so colours match the original console.
 */

export const DEFAULT_THEME = '#409EFF';

/** The 8 preset swatches of the colour picker (spec §9). */
export const THEME_PRESETS = ['#409EFF', '#ff4500', '#ff8c00', '#ffd700', '#90ee90', '#00ced1', '#1e90ff', '#c71585'] as const;

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** '#rgb' or '#rrggbb' (the '#' optional), as typed into the colour input. */
export function isValidHex(input: string): boolean {
  return HEX.test(input.trim());
}

/** Canonical '#rrggbb' in lower case, or null for anything that is not a hex colour. */
export function normalizeHex(input: string): string | null {
  const match = HEX.exec(input.trim());
  if (!match) return null;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join('') : match[1];
  return `#${digits.toLowerCase()}`;
}

function toRgb(hex: string): [number, number, number] {
  const canonical = normalizeHex(hex);
  if (!canonical) throw new Error(`Invalid hex colour: ${hex}`);
  const n = Number.parseInt(canonical.slice(1), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}

function toHex(rgb: readonly number[]): string {
  return `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}

/** Mix toward white by `level` (0..1), each channel floored as RuoYi does. */
export function lightColor(hex: string, level: number): string {
  return toHex(toRgb(hex).map((c) => Math.floor((255 - c) * level + c)));
}

/** Mix toward black by `level` (0..1), each channel floored as RuoYi does. */
export function darkColor(hex: string, level: number): string {
  return toHex(toRgb(hex).map((c) => Math.floor(c * (1 - level))));
}

const LEVELS = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => i / 10);

/** 9 light shades, 10 % to 90 % toward white. Throws for an invalid colour (validate input with isValidHex). */
export function lightShades(hex: string): string[] {
  return LEVELS.map((level) => lightColor(hex, level));
}

/** 9 dark shades, 10 % to 90 % toward black. Throws for an invalid colour. */
export function darkShades(hex: string): string[] {
  return LEVELS.map((level) => darkColor(hex, level));
}

// ---------------------------------------------------------------------------------------------------------------
// Layout settings (theme drawer), persisted locally

export type SideTheme = 'theme-dark' | 'theme-light';

export interface LayoutSettings {
  theme: string;
  sideTheme: SideTheme;
  topNav: boolean;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
  dynamicTitle: boolean;
}

export const SETTINGS_KEY = 'layout-setting';

export const DEFAULT_SETTINGS: Readonly<LayoutSettings> = Object.freeze({
  theme: DEFAULT_THEME,
  sideTheme: 'theme-dark',
  topNav: false,
  tagsView: true,
  fixedHeader: false,
  sidebarLogo: true,
  dynamicTitle: false,
});

const SWITCHES = ['topNav', 'tagsView', 'fixedHeader', 'sidebarLogo', 'dynamicTitle'] as const;

/** localStorage, or null where it is unavailable (disabled storage throws on access). */
function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/**
 * Saved settings over the defaults. Corrupt JSON, a non-object value and fields of the wrong type are ignored
 * field by field, so a bad entry never breaks the layout.
 */
export function loadSettings(): LayoutSettings {
  const settings: LayoutSettings = { ...DEFAULT_SETTINGS };
  let raw: string | null = null;
  try {
    raw = storage()?.getItem(SETTINGS_KEY) ?? null;
  } catch {
    return settings;
  }
  if (!raw) return settings;
  let saved: unknown;
  try {
    saved = JSON.parse(raw);
  } catch {
    return settings;
  }
  if (saved === null || typeof saved !== 'object' || Array.isArray(saved)) return settings;
  const record = saved as Record<string, unknown>;
  if (typeof record.theme === 'string' && isValidHex(record.theme)) settings.theme = record.theme;
  if (record.sideTheme === 'theme-dark' || record.sideTheme === 'theme-light') settings.sideTheme = record.sideTheme;
  for (const key of SWITCHES) {
    const value = record[key];
    if (typeof value === 'boolean') settings[key] = value;
  }
  return settings;
}

/** Store the settings (保存配置). Returns false when storage is unavailable or full. */
export function saveSettings(settings: LayoutSettings): boolean {
  try {
    const target = storage();
    if (!target) return false;
    // Only the known fields: the drawer's form state may carry more.
    const { theme, sideTheme, topNav, tagsView, fixedHeader, sidebarLogo, dynamicTitle } = settings;
    target.setItem(SETTINGS_KEY, JSON.stringify({ theme, sideTheme, topNav, tagsView, fixedHeader, sidebarLogo, dynamicTitle }));
    return true;
  } catch {
    return false;
  }
}

/** Forget the saved settings (重置配置); the caller reloads the page. */
export function clearSettings(): void {
  try {
    storage()?.removeItem(SETTINGS_KEY);
  } catch {
    // Storage unavailable: nothing was saved, nothing to clear.
  }
}
