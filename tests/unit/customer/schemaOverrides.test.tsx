import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { overrides } from '@/modules/customer/overrides';
import { getResourceDef, resourceForComponent } from '@/resources';

/**
 * The customer screens that come from schemas/customer/ (备忘录, 消息管理, 测评管理, 发卡记录, 卡片二): each seeded menu
 * component opens its schema's resource (no hand-written page), and the override cells show what the old pages showed.
 */
const cell = (schema: string, prop: string, value: unknown, record: Record<string, unknown> = {}) => {
  const fn = overrides[schema]?.cells?.[prop];
  if (!fn) throw new Error(`${schema}.${prop} has no cell`);
  return fn(value, { [prop]: value, ...record }) as ReactNode;
};

describe('customer screens from schemas', () => {
  it('each menu component opens its schema resource with the module’s routes', () => {
    const expected: Array<[string, string, string]> = [
      ['manage/memo/index', 'cus_memo', '/dev-api/customer/memo'],
      ['manage/message/index', 'cus_message', '/dev-api/customer/message'],
      ['manage/appraisal/index', 'cus_appraisal', '/dev-api/customer/appraisal'],
      ['card/record/index', 'card_batch', '/dev-api/card/record'],
      ['card/two/index', 'card', '/dev-api/card/two'],
    ];
    for (const [component, name, base] of expected) {
      const def = resourceForComponent(component);
      expect(def?.name, component).toBe(name);
      expect(def?.schema['x-endpoint'].base).toBe(base);
    }
    // Only the actions the module serves are offered: 测评管理, 发卡记录 and 卡片二 are read-only lists.
    expect(Object.keys(getResourceDef('cus_appraisal')?.permissions ?? {})).toEqual(['list']);
    expect(getResourceDef('cus_memo')?.permissions).toMatchObject({ add: 'manage:memo:add', edit: 'manage:memo:edit', remove: 'manage:memo:remove' });
    expect(getResourceDef('cus_message')?.permissions.add).toBeUndefined(); // 发送消息 is the toolbar dialog
    expect(getResourceDef('cus_message')?.override.toolbar?.map((a) => [a.label, a.permission])).toEqual([['发送消息', 'manage:message:add']]);
    expect(getResourceDef('card_batch')?.override.rowActions?.map((a) => [a.label, a.permission])).toEqual([['下载', 'card:record:download']]);
    expect(getResourceDef('cus_appraisal')?.override.rowActions?.map((a) => [a.label, a.permission])).toEqual([['下载结果', 'manage:appraisal:download']]);
  });

  it('测评管理 writes the dimensions out and marks an expired result', () => {
    expect(cell('cus_appraisal', 'dims', { R: 5, I: 3, X: 1 })).toBe('现实型 5，研究型 3，X 1');
    expect(cell('cus_appraisal', 'mobile', null)).toBe('--');
    render(cell('cus_appraisal', 'expireTime', Date.UTC(2020, 0, 1), { valid: false }));
    expect(screen.getByText('已过期')).toBeTruthy();
    expect(cell('cus_appraisal', 'expireTime', Date.UTC(2030, 5, 1, 4), { valid: true })).toBe('2030-06-01');
    render(cell('cus_appraisal', 'code', 'RAE'));
    expect(screen.getByText('RAE').closest('.ant-tag')).toBeTruthy();
  });

  it('发卡记录 shows the number range and the amounts in yuan; 卡片二 an unbound card as --', () => {
    expect(cell('card_batch', 'cardNoFirst', '10000001', { cardNoEnd: '10000200' })).toBe('10000001 – 10000200');
    expect(cell('card_batch', 'totalFen', 7_960_000)).toBe('79,600.00');
    expect(cell('card_batch', 'vipPrice', null)).toBe('--');
    expect(cell('card', 'studentName', null)).toBe('--');
    expect(cell('card', 'studentName', '张三')).toBe('张三');
  });
});
