import { afterEach, describe, expect, it } from 'vitest';
import { applyFavicon } from '@/session/loadSession';

/** 平台设置 网站图标 shows on the browser tab; clearing it brings back the bundled icon. */
describe('applyFavicon', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  const icon = () => document.querySelector('link[rel="icon"]')?.getAttribute('href');

  it('puts the platform favicon on the tab and falls back to /favicon.svg', () => {
    document.head.innerHTML = '<link rel="icon" href="/favicon.svg" />';
    applyFavicon('/profile/upload/2026/11/23/logo.png');
    expect(icon()).toBe('/profile/upload/2026/11/23/logo.png');
    applyFavicon(null);
    expect(icon()).toBe('/favicon.svg');
    applyFavicon('   ');
    expect(icon()).toBe('/favicon.svg');
  });

  it('does nothing when the page has no icon link', () => {
    applyFavicon('/x.png');
    expect(document.querySelector('link[rel="icon"]')).toBeNull();
  });
});
