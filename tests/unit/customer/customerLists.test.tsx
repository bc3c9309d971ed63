import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fillBody, fillText } from '@/engine/declaredActions';
import { getResourceDef, resourceForComponent } from '@/resources';
import { isHandWritten } from '@/router/componentRegistry';

/**
 * 用户列表, 回收站 and 客户资料 come from schemas/customer/cus_customer.json, cus_recycle.json and cus_client.json: the
 * seeded menu components open the engine's list over the customer module's routes, with the buttons, permissions and
 * confirmations the hand-written page had (the state changes are the module's routes, called as declared).
 */
const def = (name: string) => {
  const d = getResourceDef(name);
  if (!d) throw new Error(`${name} is not a resource`);
  return d;
};
const buttons = (name: string) => (def(name).override.rowActions ?? []).map((a) => [a.label, a.permission ?? null]);

describe('用户列表, 回收站, 客户资料 from schemas', () => {
  it('each menu component opens its schema over the module’s list route, with no hand-written page', () => {
    for (const [component, name, base] of [
      ['manage/userList/index', 'cus_customer', '/dev-api/customer'],
      ['manage/recycle/index', 'cus_recycle', '/dev-api/customer/recycle'],
      ['manage/clientData/index', 'cus_client', '/dev-api/customer/client'],
    ]) {
      expect(resourceForComponent(component)?.name, component).toBe(name);
      expect(isHandWritten(component), component).toBe(false);
      expect(def(name).schema['x-endpoint']).toMatchObject({ base, module: true });
      // Only the list is the engine's; every write is a module route behind its own button permission.
      expect(Object.keys(def(name).permissions)).toEqual(['list']);
    }
  });

  it('用户列表 and 回收站 offer the old row buttons, each behind its permission', () => {
    expect(buttons('cus_customer')).toEqual([
      ['重置信息', 'manage:user:reset'],
      ['删除', 'manage:user:remove'],
      ['开卡', 'manage:user:openCard'],
      ['修改', 'manage:user:edit'],
      ['志愿方案', null],
      ['记录', null],
    ]);
    expect(buttons('cus_recycle')).toEqual([
      ['重置信息', 'manage:user:reset'],
      ['恢复', 'manage:recycle:restore'],
      ['彻底删除', 'manage:recycle:remove'],
      ['修改', 'manage:user:edit'],
      ['记录', null],
    ]);
    expect(buttons('cus_client')).toEqual([
      ['修改资料', 'manage:client:edit'],
      ['邮寄', 'manage:client:deliver'],
    ]);
    expect((def('cus_recycle').override.toolbar ?? []).map((a) => [a.label, a.permission, a.selection])).toEqual([
      ['恢复', 'manage:recycle:restore', 'multiple'],
      ['彻底删除', 'manage:recycle:remove', 'multiple'],
    ]);
  });

  it('删除 moves the row (or the selection) to 回收站 through the module route, confirmed by name', () => {
    const recycle = def('cus_customer').override.rowActions?.find((a) => a.label === '删除')?.call;
    expect(recycle).toMatchObject({ url: '/dev-api/customer/recycle', method: 'POST' });
    const row = { studentId: 7, name: '孙七' };
    expect(fillBody(recycle?.body, row)).toEqual({ ids: 7 });
    expect(fillText(recycle?.confirm ?? '', row)).toBe('确认将用户"孙七"移入回收站吗？可在回收站中恢复。');
    const batch = def('cus_customer').override.toolbar?.find((a) => a.label === '删除')?.call;
    expect(fillBody(batch?.body, {}, [7, 9])).toEqual({ ids: [7, 9] });
    const purge = def('cus_recycle').override.rowActions?.find((a) => a.label === '彻底删除')?.call;
    expect(purge).toMatchObject({ url: '/dev-api/customer/purge', danger: true });
    expect(fillText(purge?.confirm ?? '', row)).toBe('确认彻底删除用户"孙七"吗？个人信息将被清除且不能恢复。');
  });

  it('cells read as before: -- for empty values, 未分配 without an expert, 未填写 without an address', () => {
    const cells = def('cus_customer').override.cells ?? {};
    expect(cells.mobile?.(null, {})).toBe('--');
    expect(cells.expertName?.(null, {})).toBe('未分配');
    expect(cells.expertName?.('李老师', {})).toBe('李老师');
    expect(cells.vipExpireTime?.(null, {})).toBe('--');
    render(def('cus_client').override.cells?.address?.(null, {}) as ReactNode);
    expect(screen.getByText('未填写')).toBeTruthy();
  });
});
