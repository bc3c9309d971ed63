import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { displayValue } from '@/engine/pages/cells';
import type { PropertySchema } from '@/engine/types';

/**
 * An ellipsis cell (x-list.render ellipsis) shows its text cut to the column and the full text in a tooltip on hover.
 * The tooltip is mounted on the first hover only (issue 15: sixty idle tooltips were a good part of rendering a list).
 */

afterEach(cleanup);

const prop = { type: 'string', title: '备注', 'x-list': { render: 'ellipsis' } } as PropertySchema;
const longText = '这是一段很长的备注，表格列里只显示开头，其余在提示里';

describe('ellipsis cell', () => {
  it('is plain text until hovered, then shows the full text in a tooltip', async () => {
    render(<div>{displayValue(prop, longText)}</div>);
    const cell = screen.getByText(longText);
    expect(cell.tagName).toBe('SPAN');
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseEnter(cell);
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toBe(longText);
  });

  it('shows nothing for a pointer only passing over the cell', async () => {
    render(<div>{displayValue(prop, longText)}</div>);
    const cell = screen.getByText(longText);
    fireEvent.mouseEnter(cell);
    fireEvent.mouseLeave(cell);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it('shows objects as JSON, as before', () => {
    render(<div>{displayValue(prop, { a: 1 })}</div>);
    expect(screen.getByText('{"a":1}')).toBeTruthy();
  });
});
