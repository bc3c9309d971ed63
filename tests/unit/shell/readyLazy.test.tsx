import { act, cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { moduleLoader, readyLazy } from '@/router/readyLazy';

/**
 * readyLazy (issue 15, fast switches): a page whose code was fetched in the background renders in the same pass, with
 * no loading fallback — a fallback makes React hold the page back until it has been on screen for 300 ms.
 */

afterEach(cleanup);

function Greeting({ name }: { name: string }) {
  return <p>你好，{name}</p>;
}

function renderCounting(Page: React.ComponentType<{ name: string }>) {
  const shown = { fallback: 0 };
  function Fallback() {
    shown.fallback += 1;
    return <p>正在加载页面...</p>;
  }
  render(
    <Suspense fallback={<Fallback />}>
      <Page name="管理员" />
    </Suspense>,
  );
  return shown;
}

describe('readyLazy', () => {
  it('renders a page whose module has arrived at once, without its loading fallback', async () => {
    const load = moduleLoader(async () => ({ Greeting }));
    await load();
    expect(load.loaded()?.Greeting).toBe(Greeting);

    const shown = renderCounting(readyLazy(load, (m) => m.Greeting));
    expect(screen.getByText('你好，管理员')).toBeTruthy();
    expect(shown.fallback).toBe(0);
  });

  it('still loads a page that was not fetched yet: the fallback first, then the page', async () => {
    let arrive: (m: { Greeting: typeof Greeting }) => void = () => undefined;
    const load = moduleLoader(() => new Promise<{ Greeting: typeof Greeting }>((resolve) => (arrive = resolve)));
    const shown = renderCounting(readyLazy(load, (m) => m.Greeting));
    expect(screen.getByText('正在加载页面...')).toBeTruthy();
    expect(shown.fallback).toBeGreaterThan(0);

    await act(async () => arrive({ Greeting }));
    expect(screen.getByText('你好，管理员')).toBeTruthy();
    expect(load.loaded()?.Greeting).toBe(Greeting);
  });

  it('fetches once however often it is asked, and tries again after a failed load', async () => {
    let calls = 0;
    const load = moduleLoader(async () => {
      calls += 1;
      if (calls === 1) throw new Error('网络错误');
      return { Greeting };
    });
    await expect(load()).rejects.toThrow('网络错误');
    expect(load.loaded()).toBeUndefined();
    await Promise.all([load(), load()]);
    expect(calls).toBe(2);
    expect(load.loaded()?.Greeting).toBe(Greeting);
  });
});
