import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { filterIcons, IconSelect, IconView } from '@/components/IconSelect';
import { MENU_ICON_NAMES } from '@/layout/menuIcons';
import { browserShims } from '../engine/helpers';
import { renderUi } from '../render';

/** The 菜单图标 picker (RJSF widget iconSelect, 菜单配置 dialogs) and the list cell that draws an icon. */
beforeAll(() => browserShims());
afterEach(cleanup);

function Harness({ start }: { start?: string }) {
  const [value, setValue] = useState<string | undefined>(start);
  return (
    <>
      <IconSelect value={value} onChange={setValue} placeholder="点击选择图标" />
      <output data-testid="value">{value ?? '(无)'}</output>
    </>
  );
}

describe('IconSelect', () => {
  it('filters icon names case-insensitively by substring', () => {
    expect(filterIcons('')).toEqual([...MENU_ICON_NAMES]);
    expect(filterIcons(' STA ')).toEqual(['star']);
    expect(filterIcons('tree')).toEqual(['tree-table', 'tree']);
    expect(filterIcons('没有这个')).toEqual([]);
  });

  it('opens a searchable grid of the sidebar icons; picking one sets the value', async () => {
    renderUi(<Harness />);
    fireEvent.click(screen.getByPlaceholderText('点击选择图标'));
    const search = await screen.findByPlaceholderText('请输入图标名称');
    expect(screen.getAllByRole('option')).toHaveLength(MENU_ICON_NAMES.length);
    fireEvent.change(search, { target: { value: 'use' } });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['user']);
    fireEvent.change(search, { target: { value: 'zzz' } });
    expect(screen.getByText('没有匹配的图标')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'star' } });
    fireEvent.click(screen.getByRole('option', { name: 'star' }));
    expect(screen.getByTestId('value').textContent).toBe('star');
    expect((screen.getByPlaceholderText('点击选择图标') as HTMLInputElement).value).toBe('star');
    // (Closing is animated; the browser test sees the panel go.)
  });

  it('marks the current icon in the grid', async () => {
    renderUi(<Harness start="edit" />);
    fireEvent.click(screen.getByPlaceholderText('点击选择图标'));
    await screen.findByPlaceholderText('请输入图标名称');
    expect(screen.getByRole('option', { name: 'edit' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('option', { name: 'star' }).getAttribute('aria-selected')).toBe('false');
  });
});

describe('IconView', () => {
  it('draws a stored icon and nothing for none or RuoYi’s #', () => {
    const { container } = render(
      <>
        <IconView name="star" />
        <IconView name="#" />
        <IconView name={null} />
      </>,
    );
    expect(screen.getAllByRole('img', { name: /^图标 / }).map((e) => e.getAttribute('aria-label'))).toEqual(['图标 star']);
    expect(container.querySelectorAll('.icon-view')).toHaveLength(1);
  });
});
