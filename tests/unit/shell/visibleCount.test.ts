import { describe, expect, it } from 'vitest';
import { MORE_MENU_LABEL, splitTopNav, visibleNumber } from '@/layout/topNav/visibleCount';

describe('visibleNumber', () => {
  it.each([
    [1920, 7], // 1920 / 3 / 85 = 7.53
    [1366, 5], // 5.36
    [1280, 5], // 5.02
    [1275, 5], // exactly 5
    [1274, 4], // 4.996
    [992, 3],
    [768, 3],
    [254, 0],
    [255, 1],
  ])('width %i shows %i entries', (width, count) => {
    expect(visibleNumber(width)).toBe(count);
  });

  it('never goes negative or NaN', () => {
    expect(visibleNumber(0)).toBe(0);
    expect(visibleNumber(-500)).toBe(0);
    expect(visibleNumber(Number.NaN)).toBe(0);
  });
});

describe('splitTopNav', () => {
  const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

  it('puts the overflow under 更多菜单', () => {
    expect(splitTopNav(items, 1366)).toEqual({ visible: ['a', 'b', 'c', 'd', 'e'], more: ['f', 'g', 'h'] });
    expect(MORE_MENU_LABEL).toBe('更多菜单');
  });

  it('has no overflow when everything fits', () => {
    expect(splitTopNav(items.slice(0, 3), 1920)).toEqual({ visible: ['a', 'b', 'c'], more: [] });
  });

  it('puts everything in the overflow when nothing fits', () => {
    expect(splitTopNav(items.slice(0, 2), 100)).toEqual({ visible: [], more: ['a', 'b'] });
  });
});
