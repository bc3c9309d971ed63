import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { studentDrawer } from '@/modules/volunteer/students/openers';
import { getResourceDef, resourceForComponent } from '@/resources';
import { isHandWritten } from '@/router/componentRegistry';

/**
 * 学生志愿 comes from schemas/volunteer/vol_student.json: the engine's list over GET /dev-api/api/index/subscriber with
 * the old page's buttons — the name and 详情 open the student drawer, 填报 until the plan is submitted (then 查看方案),
 * 新增学生 / 导入 / 下载导入模板 for holders of volunteer:student:add — and 负责专家 only for leaders.
 */
const def = getResourceDef('vol_student');

describe('学生志愿 from its schema', () => {
  it('opens from the menu component volunteer/index over the spec route', () => {
    expect(resourceForComponent('volunteer/index')?.name).toBe('vol_student');
    expect(isHandWritten('volunteer/index')).toBe(false);
    expect(def?.schema['x-endpoint']).toMatchObject({ style: 'rest', base: '/dev-api/api/index', actions: { list: 'subscriber' }, module: true });
    expect(def?.schema.properties.ownerName['x-list']?.permission).toBe('volunteer:approval:list');
    expect(def?.schema.properties.ownerId['x-search']?.permission).toBe('volunteer:approval:list');
  });

  it('offers 填报 until the plan is submitted or approved, then 查看方案', () => {
    const shown = (planStatus: string) =>
      (def?.override.rowActions ?? []).filter((a) => !a.visible || a.visible({ studentId: 1, planStatus })).map((a) => a.label);
    expect(shown('none')).toEqual(['详情', '填报']);
    expect(shown('draft')).toEqual(['详情', '填报']);
    expect(shown('rejected')).toEqual(['详情', '填报']);
    expect(shown('submitted')).toEqual(['详情', '查看方案']);
    expect(shown('approved')).toEqual(['详情', '查看方案']);
    expect(def?.override.toolbar?.map((a) => [a.label, a.permission])).toEqual([
      ['新增学生', 'volunteer:student:add'],
      ['导入', 'volunteer:student:add'],
      ['下载导入模板', 'volunteer:student:add'],
    ]);
  });

  it('the name opens the student drawer', () => {
    render(def?.override.cells?.name?.('张三', { studentId: 12, name: '张三' }) as ReactNode);
    fireEvent.click(screen.getByRole('button', { name: '张三' }));
    let opened: number | null = null;
    const Probe = () => {
      opened = studentDrawer.use();
      return null;
    };
    render(<Probe />);
    expect(opened).toBe(12);
    studentDrawer.close();
  });
});
