import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter, type NavigateFunction, Route, Routes, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppMain } from '@/layout/AppMain';

/**
 * The tab cache (AppMain, issue 15): a return to an open tab shows the kept page at once — the same page, not
 * mounted again, no request while its data is fresh — and a page whose data has gone stale shows what it had and
 * refreshes in the background.
 */

let navigate: NavigateFunction = () => undefined;
function Navigator() {
  navigate = useNavigate();
  return null;
}

const counts = { mounts: 0, fetches: 0 };

/** A page as the console has them: reads the router (useNavigate does), asks the server through the query cache. */
function ListPage() {
  useState(() => {
    counts.mounts += 1;
  });
  useNavigate();
  const [typed, setTyped] = useState('');
  const { data } = useQuery({
    queryKey: ['rows'],
    queryFn: async () => {
      counts.fetches += 1;
      return `第 ${counts.fetches} 次的数据`;
    },
    staleTime: 30_000,
  });
  return (
    <div>
      <input aria-label="参数名称" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <p>{data ?? '加载中'}</p>
    </div>
  );
}

function Layout() {
  return (
    <>
      <Navigator />
      <AppMain keepAlive={new Set(['/system/config', '/index'])} refreshKeys={new Map()} page={undefined} />
    </>
  );
}

function renderShell(client: QueryClient) {
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/system/config']}>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/system/config" element={<ListPage />} />
            <Route path="/index" element={<p>首页内容</p>} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const go = (to: string) =>
  act(async () => {
    navigate(to);
  });

describe('a kept tab', () => {
  let now = Date.parse('2026-11-24T08:00:00Z');
  beforeEach(() => {
    counts.mounts = 0;
    counts.fetches = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('comes back at once: the same page with its typed text, no request while its data is fresh', async () => {
    const client = new QueryClient();
    renderShell(client);
    await screen.findByText('第 1 次的数据');
    fireEvent.change(screen.getByLabelText('参数名称'), { target: { value: 'sys.user' } });

    await go('/index');
    expect(screen.getByText('首页内容')).toBeTruthy();
    // Hidden, kept: still in the document, out of sight.
    expect(screen.getByText('第 1 次的数据').closest('div')?.style.display).toBe('none');

    await go('/system/config');
    expect(screen.getByText('第 1 次的数据')).toBeTruthy();
    expect((screen.getByLabelText('参数名称') as HTMLInputElement).value).toBe('sys.user');
    expect(counts.mounts).toBe(1);
    expect(counts.fetches).toBe(1);
    client.clear();
  });

  it('shows its old data at once after the freshness window and refreshes it in the background', async () => {
    const client = new QueryClient();
    renderShell(client);
    await screen.findByText('第 1 次的数据');

    await go('/index');
    now += 31_000;
    await go('/system/config');
    // The kept page is on screen with what it had, then its data is asked for again.
    expect(screen.getByText(/第 [12] 次的数据/)).toBeTruthy();
    await screen.findByText('第 2 次的数据');
    expect(counts.fetches).toBe(2);
    expect(counts.mounts).toBe(1);
    client.clear();
  });
});
