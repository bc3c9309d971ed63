import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { type ComponentType, lazy, type ReactNode } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppErrorBoundary } from '@/components/ErrorBoundary';
import { isChunkLoadError, RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '@/components/ErrorBoundary/chunkReload';
import { AppMain } from '@/layout/AppMain';

/**
 * A console tab left open across a redeploy (issue 25 item 7): the page it opens next asks for a chunk the server no
 * longer has. The page reloads once for the new build; if the chunk is still missing the page area says so, with 刷新,
 * inside the frame — never a white page. A page that throws while rendering shows 页面出错了 in the same place.
 */

/** What Chromium rejects a dynamic import with when the chunk answers 404. */
const chunkError = () => new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1/assets/server-Bx2kQ9.js');

/** A lazily loaded component whose code is gone from the server. */
const missingChunk = () => lazy<ComponentType>(() => Promise.reject(chunkError()));
/** A routed page of that kind. */
function missingPage() {
  const Page = missingChunk();
  return <Page />;
}

const boom = { throws: true };
function FragilePage() {
  if (boom.throws) throw new Error('Cannot read properties of undefined (reading "rows")');
  return <p>服务监控内容</p>;
}

/** The frame as BasicLayout has it, cut to what matters here: a menu and the page area. */
function Frame({ keepAlive }: { keepAlive: string[] }) {
  return (
    <>
      <nav aria-label="侧边菜单">
        <Link to="/index">首页</Link>
        <Link to="/monitor/server">服务监控</Link>
      </nav>
      <AppMain keepAlive={new Set(keepAlive)} refreshKeys={new Map()} page={undefined} />
    </>
  );
}

function renderConsole(page: ReactNode, { at = '/index', keepAlive = ['/index', '/monitor/server'] } = {}) {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <AppErrorBoundary>
        <Routes>
          <Route element={<Frame keepAlive={keepAlive} />}>
            <Route path="/index" element={<p>首页内容</p>} />
            <Route path="/monitor/server" element={page} />
          </Route>
        </Routes>
      </AppErrorBoundary>
    </MemoryRouter>,
  );
}

/** antd spaces out a two-character button label: 刷 新. */
const REFRESH = /^刷\s*新$/;

/** Text on screen: in the document and not inside a kept page that is hidden (display: none). */
const shown = (text: string) =>
  screen.queryAllByText(text).some((el) => {
    for (let node: HTMLElement | null = el; node; node = node.parentElement) if (node.style.display === 'none') return false;
    return true;
  });

const menu = () => screen.getByRole('navigation', { name: '侧边菜单' });
const click = (name: string) =>
  act(async () => {
    fireEvent.click(screen.getByRole('link', { name }));
  });

let reload: ReturnType<typeof vi.fn>;
let pageLoad = 1_000;
let clockShift = 0;

/** A reload as the browser does it: a new page load, the React tree built again from nothing. */
function newPageLoad() {
  cleanup();
  pageLoad += 1;
}

beforeEach(() => {
  sessionStorage.clear();
  reload = vi.fn();
  vi.stubGlobal('location', { href: 'http://127.0.0.1/monitor/server', reload });
  vi.spyOn(performance, 'timeOrigin', 'get').mockImplementation(() => pageLoad);
  const realNow = Date.now.bind(Date);
  clockShift = 0;
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + clockShift);
  // React logs each error a boundary catches, the boundary says what it did about a chunk: expected here, kept quiet.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  boom.throws = true;
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('a page whose chunk is gone after a redeploy', () => {
  it('reloads the page once, and after that reload shows 页面加载失败 with 刷新 inside the frame', async () => {
    renderConsole(missingPage());
    await click('服务监控');
    await screen.findByText('正在刷新页面');
    expect(reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(RELOAD_MARKER_KEY)).not.toBeNull();
    // The frame stays while the page reloads.
    expect(menu()).toBeTruthy();

    // The reloaded page opens the same address; its chunk is still missing.
    newPageLoad();
    renderConsole(missingPage(), { at: '/monitor/server' });
    await screen.findByText('页面加载失败');
    expect(screen.getByText(/系统可能已更新，请刷新页面后重试/)).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
    // Inside the frame: the menu is still there and works.
    expect(menu()).toBeTruthy();
    // Nothing for developers on the page: no error message, no stack.
    expect(document.body.textContent).not.toMatch(/Failed to fetch|TypeError|assets\//);

    fireEvent.click(screen.getByRole('button', { name: REFRESH }));
    expect(reload).toHaveBeenCalledTimes(2);

    await click('首页');
    expect(screen.getByText('首页内容')).toBeTruthy();
  });

  it('asks for one reload per page load: the menu clicked again before the reload lands asks for none', async () => {
    renderConsole(missingPage(), { at: '/monitor/server' });
    await screen.findByText('正在刷新页面');
    expect(reload).toHaveBeenCalledTimes(1);
    await click('服务监控');
    await screen.findByText('正在刷新页面');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for a failure long after the last reload, and after a page has loaded since', async () => {
    renderConsole(missingPage(), { at: '/monitor/server' });
    await screen.findByText('正在刷新页面');
    expect(reload).toHaveBeenCalledTimes(1);

    // A later page load, past the guard: a new redeploy may reload once more.
    newPageLoad();
    clockShift = RELOAD_GUARD_MS + 1000;
    renderConsole(missingPage(), { at: '/monitor/server' });
    await screen.findByText('正在刷新页面');
    expect(reload).toHaveBeenCalledTimes(2);

    // The reload helped: the page renders, and the marker goes, so the next failure reloads at once.
    newPageLoad();
    renderConsole(<p>服务监控内容</p>, { at: '/monitor/server' });
    await screen.findByText('服务监控内容');
    expect(sessionStorage.getItem(RELOAD_MARKER_KEY)).toBeNull();
  });

  it('does not reload without a network: says so and offers 刷新', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderConsole(missingPage(), { at: '/monitor/server' });
    await screen.findByText(/网络连接已断开/);
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: REFRESH })).toBeTruthy();
  });

  it('the frame code itself missing: reloads once, then the whole window shows the error page', async () => {
    const MissingFrame = missingChunk();
    const renderApp = () =>
      render(
        <MemoryRouter initialEntries={['/index']}>
          <AppErrorBoundary>
            <Routes>
              <Route element={<MissingFrame />}>
                <Route path="/index" element={<p>首页内容</p>} />
              </Route>
            </Routes>
          </AppErrorBoundary>
        </MemoryRouter>,
      );
    renderApp();
    await screen.findByText('正在刷新页面');
    expect(reload).toHaveBeenCalledTimes(1);
    newPageLoad();
    renderApp();
    await screen.findByText('页面加载失败');
    expect(screen.getByRole('button', { name: REFRESH })).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('a page that throws while rendering', () => {
  it('shows 页面出错了 with 刷新 and 返回首页 in the page area; the frame stays; no reload', async () => {
    renderConsole(<FragilePage />);
    await click('服务监控');
    await screen.findByText('页面出错了');
    expect(screen.getByRole('button', { name: REFRESH })).toBeTruthy();
    expect(screen.getByRole('button', { name: '返回首页' })).toBeTruthy();
    expect(menu()).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
    expect(document.body.textContent).not.toMatch(/Cannot read|rows|FragilePage/);
    // Logged for whoever looks at the browser console.
    expect(console.error).toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: REFRESH }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('返回首页 leaves the error; opening the page again renders it afresh', async () => {
    renderConsole(<FragilePage />, { at: '/monitor/server' });
    await screen.findByText('页面出错了');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    });
    expect(shown('首页内容')).toBe(true);
    expect(shown('页面出错了')).toBe(false);

    // Fixed meanwhile (say the data that broke it changed): the kept page's tab, shown again, renders it.
    boom.throws = false;
    await click('服务监控');
    expect(shown('服务监控内容')).toBe(true);
    expect(screen.queryByText('页面出错了')).toBeNull();
  });

  it('clicking the same menu entry again retries the page', async () => {
    renderConsole(<FragilePage />, { at: '/monitor/server' });
    await screen.findByText('页面出错了');
    boom.throws = false;
    await click('服务监控');
    expect(screen.getByText('服务监控内容')).toBeTruthy();
  });

  it('an error outside the frame shows the whole-window error page; 返回首页 leaves it', async () => {
    function BrokenRegister(): ReactNode {
      throw new Error('register broke');
    }
    render(
      <MemoryRouter initialEntries={['/register']}>
        <AppErrorBoundary>
          <Routes>
            <Route path="/register" element={<BrokenRegister />} />
            <Route path="/index" element={<p>首页内容</p>} />
          </Routes>
        </AppErrorBoundary>
      </MemoryRouter>,
    );
    await screen.findByText('页面出错了');
    expect(document.body.textContent).not.toMatch(/register broke/);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    });
    expect(screen.getByText('首页内容')).toBeTruthy();
    expect(screen.queryByText('页面出错了')).toBeNull();
  });
});

describe('isChunkLoadError', () => {
  it('knows the chunk failures of Chromium, Safari, Firefox, Vite and webpack, and nothing else', () => {
    expect(isChunkLoadError(chunkError())).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Unable to preload CSS for /assets/index-1.css'))).toBe(true);
    expect(isChunkLoadError(Object.assign(new Error('Loading chunk 12 failed.'), { name: 'ChunkLoadError' }))).toBe(true);
    expect(isChunkLoadError(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(undefined)).toBe(false);
  });
});
