import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  clearSettings,
  DEFAULT_SETTINGS,
  DEFAULT_THEME,
  darkColor,
  darkShades,
  isValidHex,
  lightColor,
  lightShades,
  loadSettings,
  normalizeHex,
  SETTINGS_KEY,
  saveSettings,
  THEME_PRESETS,
} from '@/utils/theme';

describe('theme constants', () => {
  it('default colour and the 8 presets of spec §9', () => {
    expect(DEFAULT_THEME).toBe('#409EFF');
    expect(THEME_PRESETS).toEqual(['#409EFF', '#ff4500', '#ff8c00', '#ffd700', '#90ee90', '#00ced1', '#1e90ff', '#c71585']);
  });
});

describe('shades', () => {
  it('the first light shade of #409EFF mixes 10 % toward white (channels floored)', () => {
    // r: 64 + (255 - 64) * 0.1 = 83.1 → 0x53; g: 158 + 97 * 0.1 = 167.7 → 0xa7; b stays 0xff.
    expect(lightShades('#409EFF')[0]).toBe('#53a7ff');
  });

  it('9 light shades from 10 % to 90 % toward white', () => {
    expect(lightShades('#409EFF')).toEqual(['#53a7ff', '#66b1ff', '#79bbff', '#8cc4ff', '#9fceff', '#b2d8ff', '#c5e1ff', '#d8ebff', '#ebf5ff']);
  });

  it('9 dark shades from 10 % to 90 % toward black', () => {
    // First: 64 * 0.9 = 57.6 → 0x39; 158 * 0.9 = 142.2 → 0x8e; 255 * 0.9 = 229.5 → 0xe5.
    expect(darkShades('#409EFF')).toEqual(['#398ee5', '#337ecc', '#2c6eb2', '#265e99', '#204f7f', '#193f66', '#132f4c', '#0c1f32', '#060f19']);
  });

  it('extremes: white stays white when lightened, black stays black when darkened', () => {
    expect(lightShades('#ffffff').every((s) => s === '#ffffff')).toBe(true);
    expect(darkShades('#000').every((s) => s === '#000000')).toBe(true);
    expect(lightColor('#000000', 0.5)).toBe('#7f7f7f');
    expect(darkColor('#ffffff', 0.5)).toBe('#7f7f7f');
  });

  it('accepts 3-digit colours and a missing #', () => {
    expect(lightShades('#fff')[0]).toBe('#ffffff');
    expect(lightShades('409EFF')).toEqual(lightShades('#409eff'));
  });

  it('throws for invalid colours', () => {
    expect(() => lightShades('red')).toThrow(/Invalid hex colour/);
    expect(() => darkShades('#12345')).toThrow(/Invalid hex colour/);
  });
});

describe('hex validation', () => {
  it.each(['#409EFF', '#409eff', '409EFF', '#fff', ' #abc '])('%s is valid', (hex) => {
    expect(isValidHex(hex)).toBe(true);
  });

  it.each(['', '#', '#ff', '#ffff', '#12345', '#1234567', '#ggg', 'rgb(0,0,0)', '##fff'])('%s is invalid', (hex) => {
    expect(isValidHex(hex)).toBe(false);
  });

  it('normalizes to lower-case #rrggbb', () => {
    expect(normalizeHex('#ABC')).toBe('#aabbcc');
    expect(normalizeHex('409EFF')).toBe('#409eff');
    expect(normalizeHex('nope')).toBeNull();
  });
});

describe('layout settings persistence', () => {
  afterEach(() => {
    localStorage.clear();
    vi.restoreAllMocks();
  });

  it('defaults match the spec', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      theme: '#409EFF',
      sideTheme: 'theme-dark',
      topNav: false,
      tagsView: true,
      fixedHeader: false,
      sidebarLogo: true,
      dynamicTitle: false,
    });
    expect(SETTINGS_KEY).toBe('layout-setting');
  });

  it('loads defaults when nothing is saved', () => {
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('saves under layout-setting and loads back', () => {
    const custom = { ...DEFAULT_SETTINGS, theme: '#ff4500', sideTheme: 'theme-light' as const, topNav: true, tagsView: false };
    expect(saveSettings(custom)).toBe(true);
    expect(JSON.parse(localStorage.getItem('layout-setting') ?? 'null')).toEqual(custom);
    expect(loadSettings()).toEqual(custom);
  });

  it('stores only the known fields', () => {
    saveSettings({ ...DEFAULT_SETTINGS, extra: 'x' } as typeof DEFAULT_SETTINGS & { extra: string });
    expect(Object.keys(JSON.parse(localStorage.getItem(SETTINGS_KEY) ?? '{}'))).not.toContain('extra');
  });

  it('tolerates corrupt JSON by falling back to defaults', () => {
    localStorage.setItem(SETTINGS_KEY, '{"theme": "#ff4500", oops');
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
    localStorage.setItem(SETTINGS_KEY, '"just a string"');
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
    localStorage.setItem(SETTINGS_KEY, '[1,2]');
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('merges a partial or mistyped entry field by field', () => {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify({ topNav: true, fixedHeader: 'yes', theme: 'blue', sideTheme: 'theme-pink', dynamicTitle: true }));
    expect(loadSettings()).toEqual({ ...DEFAULT_SETTINGS, topNav: true, dynamicTitle: true });
  });

  it('clearSettings forgets the saved entry', () => {
    saveSettings({ ...DEFAULT_SETTINGS, topNav: true });
    clearSettings();
    expect(localStorage.getItem(SETTINGS_KEY)).toBeNull();
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
  });

  it('survives storage that throws', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    expect(loadSettings()).toEqual(DEFAULT_SETTINGS);
    expect(saveSettings(DEFAULT_SETTINGS)).toBe(false);
    expect(() => clearSettings()).not.toThrow();
  });
});
