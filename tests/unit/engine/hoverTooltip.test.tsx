import type { PropertySchema } from '@common/engine/types';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { displayValue } from '@/engine/pages/cells';
import { renderUi } from '../render';

/**
 * An ellipsis cell (x-list.render ellipsis) shows its text cut to the column and the full text in a tooltip on hover.
 * The tooltip is mounted on the first hover only (issue 15: sixty idle tooltips were a good part of rendering a list).
 */

afterEach(cleanup);

const prop = { type: 'string', title: '备注', 'x-list': { render: 'ellipsis' } } as PropertySchema;
const longText = '这是一段很长的备注，表格列里只显示开头，其余在提示里';

describe('ellipsis cell', () => {
  it('is plain text until hovered, then shows the full text in a tooltip', async () => {
    renderUi(<div>{displayValue(prop, longText)}</div>);
    const cell = screen.getByText(longText);
    expect(cell.tagName).toBe('SPAN');
    expect(screen.queryByRole('tooltip')).toBeNull();

    fireEvent.mouseEnter(cell);
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toBe(longText);
  });

  it('shows nothing for a pointer only passing over the cell, and the tooltip once it rests there', () => {
    // The delay is the behaviour under test: fake timers run it out exactly, whatever the machine's load.
    vi.useFakeTimers();
    try {
      renderUi(<div>{displayValue(prop, longText)}</div>);
      const cell = screen.getByText(longText);
      fireEvent.mouseEnter(cell);
      fireEvent.mouseLeave(cell);
      act(() => vi.runAllTimers());
      expect(screen.queryByRole('tooltip')).toBeNull();
      fireEvent.mouseEnter(cell);
      act(() => vi.advanceTimersByTime(99));
      expect(screen.queryByRole('tooltip')).toBeNull();
      act(() => vi.advanceTimersByTime(1));
      expect(screen.getByRole('tooltip').textContent).toBe(longText);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows objects as JSON, as before', () => {
    render(<div>{displayValue(prop, { a: 1 })}</div>);
    expect(screen.getByText('{"a":1}')).toBeTruthy();
  });
});
