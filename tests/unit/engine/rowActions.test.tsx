import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Button, ConfigProvider } from 'antd';
import { HttpResponse, http as mock } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { EntityList } from '@/engine/pages/EntityList';
import { LinkAction, type LinkActionClass, useLinkActionClass } from '@/engine/pages/LinkAction';
import type { ResourceDef } from '@/engine/resource';
import { getResourceDef } from '@/resources';
import { configRows, renderWithRefine, signedIn, useEngineServer } from './helpers';

/**
 * The list rows' buttons are light `LinkAction`s instead of antd Buttons (fewer components and effects per row). They
 * must stay what users see and use: the same DOM as antd's small link button, real buttons with their names, their
 * handlers called with the current row and selection, hidden without the permission.
 */
const deletes: string[] = [];

useEngineServer(() => {
  deletes.length = 0;
  return [
    mock.get('*/dev-api/system/config/list', () => HttpResponse.json({ code: 200, msg: '查询成功', rows: configRows, total: 2 })),
    mock.get('*/dev-api/system/dict/data/type/sys_yes_no', () => HttpResponse.json({ code: 200, msg: '操作成功', data: [] })),
    mock.delete('*/dev-api/system/config/:ids', ({ params }) => {
      deletes.push(String(params.ids));
      return HttpResponse.json({ code: 200, msg: '操作成功' });
    }),
  ];
});

const base = getResourceDef('sys_config') as ResourceDef;
const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;

function Pair({ danger, icon, label }: { danger?: boolean; icon?: ReactNode; label: string }) {
  const classes: LinkActionClass = useLinkActionClass();
  return (
    <>
      <div data-testid="antd">
        <Button type="link" size="small" danger={danger} icon={icon}>
          {label}
        </Button>
      </div>
      <div data-testid="light">
        <LinkAction classes={classes} danger={danger} icon={icon} onClick={() => {}}>
          {label}
        </LinkAction>
      </div>
    </>
  );
}

describe('LinkAction', () => {
  it.each([
    ['修改', false, <EditOutlined key="e" />],
    ['删除', true, <DeleteOutlined key="d" />],
    ['7', false, undefined],
  ])('renders %s exactly as antd’s small link Button does', (label, danger, icon) => {
    render(
      <ConfigProvider>
        <Pair label={label} danger={danger} icon={icon} />
      </ConfigProvider>,
    );
    const antd = screen.getByTestId('antd').querySelector('button') as HTMLButtonElement;
    const light = screen.getByTestId('light').querySelector('button') as HTMLButtonElement;
    expect(light.getAttribute('type')).toBe('button');
    expect(light.className.split(' ').sort()).toEqual(antd.className.split(' ').sort());
    expect(light.innerHTML).toBe(antd.innerHTML);
  });
});

describe('参数设置 row buttons', () => {
  it('修改 / 删除 / 详情 are buttons by name; 删除 deletes the row it is on, also after a selection', async () => {
    signedIn(['system:config:list', 'system:config:query', 'system:config:edit', 'system:config:remove']);
    renderWithRefine(<EntityList resource={base} />);
    await screen.findByText('sys.user.initPassword');
    const second = rowOf('sys.user.initPassword');
    expect(within(second).getByRole('button', { name: /修改/ })).toBeTruthy();
    expect(within(second).getByRole('button', { name: '2' }).getAttribute('title')).toBe('详情');
    // Select the first row: the second row's 删除 still names the second row.
    fireEvent.click(within(rowOf('sys.index.skinName')).getByRole('checkbox'));
    fireEvent.click(within(second).getByRole('button', { name: /删除/ }));
    await screen.findByText('是否确认删除参数设置编号为"2"的数据项？');
    fireEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(deletes).toEqual(['2']));
  });

  it('without system:config:query the key is plain text, without edit / remove there is no 修改 / 删除 in the rows', async () => {
    signedIn(['system:config:list']);
    renderWithRefine(<EntityList resource={base} />);
    await screen.findByText('sys.user.initPassword');
    const second = rowOf('sys.user.initPassword');
    expect(within(second).queryByRole('button')).toBeNull();
    expect(within(second).getByText('2')).toBeTruthy();
  });

  it('an override row action gets its row and the current selection, and is hidden without its permission', async () => {
    const onClick = vi.fn();
    const def: ResourceDef = {
      ...base,
      override: { ...base.override, rowActions: [{ key: 'copy', label: '复制', permission: 'system:config:copy', onClick }] },
    };
    signedIn(['system:config:list', 'system:config:copy']);
    const { unmount } = renderWithRefine(<EntityList resource={def} />);
    await screen.findByText('sys.user.initPassword');
    fireEvent.click(within(rowOf('sys.index.skinName')).getByRole('checkbox'));
    fireEvent.click(within(rowOf('sys.user.initPassword')).getByRole('button', { name: '复制' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    const [record, ctx] = onClick.mock.calls[0];
    expect(record.configId).toBe(2);
    expect(ctx.selectedRowKeys).toEqual([1]);
    unmount();

    signedIn(['system:config:list']);
    renderWithRefine(<EntityList resource={def} />);
    await screen.findByText('sys.user.initPassword');
    expect(screen.queryByRole('button', { name: '复制' })).toBeNull();
  });
});
