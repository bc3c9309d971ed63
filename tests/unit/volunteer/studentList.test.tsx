import { fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { studentDrawer, usePageRequest } from '@/modules/volunteer/students/openers';
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

  it('the name opens the student drawer of its own page only', () => {
    render(def?.override.cells?.name?.('张三', { studentId: 12, name: '张三' }) as ReactNode);
    fireEvent.click(screen.getByRole('button', { name: '张三' }));
    const opened: Record<string, number | null> = {};
    // 学生志愿 and 志愿保存 are both kept mounted in their tabs: only the page the click came from opens its drawer.
    const Probe = ({ resource }: { resource: string }) => {
      opened[resource] = usePageRequest(studentDrawer, resource);
      return null;
    };
    render(
      <>
        <Probe resource="vol_student" />
        <Probe resource="vol_saved_plan" />
      </>,
    );
    expect(opened).toEqual({ vol_student: 12, vol_saved_plan: null });
    studentDrawer.close();
  });
});

/**
 * 志愿保存 comes from schemas/volunteer/vol_saved_plan.json: the same list and route as 学生志愿 behind its own page
 * permission (volunteer:plan:saved), with the plan as PDF / Excel for students who have one, and no add / import.
 */
describe('志愿保存 from its schema', () => {
  const saved = getResourceDef('vol_saved_plan');

  it('opens from the menu component savevolunteer/index over the 学生志愿 route, behind its own page permission', () => {
    expect(resourceForComponent('savevolunteer/index')?.name).toBe('vol_saved_plan');
    expect(isHandWritten('savevolunteer/index')).toBe(false);
    expect(saved?.schema['x-endpoint']).toEqual(def?.schema['x-endpoint']);
    expect(saved?.schema['x-menu']).toMatchObject({ path: 'savevolunteer', perms: 'volunteer:plan:saved' });
    expect(saved?.permissions.list).toBe('volunteer:plan:list');
  });

  it('offers PDF / Excel once a plan is saved, and no toolbar buttons', () => {
    const shown = (planStatus: string) =>
      (saved?.override.rowActions ?? []).filter((a) => !a.visible || a.visible({ studentId: 1, planStatus })).map((a) => a.label);
    expect(shown('none')).toEqual(['详情', '填报']);
    expect(shown('draft')).toEqual(['详情', '填报', 'PDF', 'Excel']);
    expect(shown('approved')).toEqual(['详情', '查看方案', 'PDF', 'Excel']);
    expect(saved?.override.toolbar ?? []).toEqual([]);
  });

  it('its name cell opens the drawer of the 志愿保存 page', () => {
    render(saved?.override.cells?.name?.('李四', { studentId: 7, name: '李四' }) as ReactNode);
    fireEvent.click(screen.getByRole('button', { name: '李四' }));
    let opened: number | null = null;
    const Probe = () => {
      opened = usePageRequest(studentDrawer, 'vol_saved_plan');
      return null;
    };
    render(<Probe />);
    expect(opened).toBe(7);
    studentDrawer.close();
  });
});
