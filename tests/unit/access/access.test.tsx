import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Access } from '@/components/Access';
import { accessControlProvider } from '@/providers/accessControlProvider';
import { sessionStore } from '@/session/sessionStore';

const signedIn = (roles: string[], permissions: string[]) => sessionStore.set({ roles, permissions, loaded: true });

describe('<Access> and the Refine access-control provider', () => {
  afterEach(() => sessionStore.reset());

  it('keeps an element for a listed permission and drops it otherwise', () => {
    signedIn(['operator'], ['system:config:list', 'system:config:edit']);
    render(
      <>
        <Access permissions={['system:config:edit']}>
          <button type="button">修改</button>
        </Access>
        <Access permissions={['system:config:remove']}>
          <button type="button">删除</button>
        </Access>
      </>,
    );
    expect(screen.queryByText('修改')).not.toBeNull();
    expect(screen.queryByText('删除')).toBeNull();
  });

  it('keeps every element for the admin role and for the wildcard permission', () => {
    signedIn(['admin'], []);
    const { unmount } = render(<Access permissions={['anything:at:all']}>按钮</Access>);
    expect(screen.queryByText('按钮')).not.toBeNull();
    unmount();
    signedIn(['common'], ['*:*:*']);
    render(
      <Access roles={['leader']} permissions={['x:y:z']}>
        按钮
      </Access>,
    );
    expect(screen.queryByText('按钮')).not.toBeNull();
  });

  it('keeps an element for a listed role', () => {
    signedIn(['leader'], []);
    render(<Access roles={['expert', 'leader']}>审批</Access>);
    expect(screen.queryByText('审批')).not.toBeNull();
  });

  it('raises the spec messages for empty lists', () => {
    signedIn(['leader'], []);
    expect(() => render(<Access permissions={[]}>x</Access>)).toThrow('请设置操作权限标签值');
    expect(() => render(<Access roles={[]}>x</Access>)).toThrow('请设置角色权限标签值');
  });

  it('answers Refine from the local list, mapping delete to :remove', async () => {
    signedIn(['operator'], ['system:config:list', 'system:config:edit']);
    const resource = { name: 'config', meta: { permission: 'system:config' } };
    await expect(accessControlProvider.can({ resource: 'config', action: 'edit', params: { resource } })).resolves.toEqual({ can: true });
    const denied = await accessControlProvider.can({ resource: 'config', action: 'delete', params: { resource } });
    expect(denied.can).toBe(false);
    expect(denied.reason).toContain('system:config:remove');
  });
});
