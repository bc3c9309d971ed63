import { act, render, screen } from '@testing-library/react';
import { Form } from 'antd';
import { useState } from 'react';
import { MemoryRouter, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { statusFromLink, useApplyLinkedFilter, useLinkedFilter } from '@/modules/customer/shared/useLinkedFilter';

type Values = { status?: number };
type Query = { pageNum: number; status?: number };
const read = statusFromLink<Values, Query>({ 0: '待处理', 1: '处理中' });
const queries: Query[] = [];
let go: (to: string) => void = () => undefined;

function List() {
  const linked = useLinkedFilter(read);
  const [query, setQuery] = useState<Query>({ pageNum: 3, ...linked?.query });
  const [form] = Form.useForm<Values>();
  useApplyLinkedFilter(read, form, setQuery);
  queries.push(query);
  go = useNavigate();
  return (
    <Form form={form}>
      <Form.Item name="status" noStyle>
        <input aria-label="状态" readOnly />
      </Form.Item>
      <span data-testid="query">{JSON.stringify(query)}</span>
    </Form>
  );
}

/** The home page's to-do counts open lists through links like ?status=0: the list shows exactly the counted rows. */
describe('a list opened from a link carrying its filter', () => {
  it('queries with the filter from the first request, shows it in the form, and applies a later link', async () => {
    queries.length = 0;
    render(
      <MemoryRouter initialEntries={['/list?status=0']}>
        <List />
      </MemoryRouter>,
    );
    expect(queries[0]).toEqual({ pageNum: 3, status: 0 }); // never an unfiltered first query
    expect((screen.getByLabelText('状态') as HTMLInputElement).value).toBe('0');
    await act(async () => go('/list?status=1'));
    expect(JSON.parse(screen.getByTestId('query').textContent ?? '{}')).toEqual({ pageNum: 1, status: 1 });
    expect((screen.getByLabelText('状态') as HTMLInputElement).value).toBe('1');
  });

  it('ignores a status the list does not have', () => {
    queries.length = 0;
    render(
      <MemoryRouter initialEntries={['/list?status=9']}>
        <List />
      </MemoryRouter>,
    );
    expect(queries[0]).toEqual({ pageNum: 3 });
  });
});
