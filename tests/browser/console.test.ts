import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, screenshotDir, signIn } from './browser';

/**
 * Interaction defects of the console a user lives in all day (issue 15), each driven in Chromium against the real
 * server and the built console: reads made at once, sign-out between two users, a long tab bar, and fixed columns.
 */
describe('console glitches', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** In-app navigation (as a menu click does), without reloading the console. */
  const go = (page: Page, to: string) =>
    page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, to);
  const tabTexts = (page: Page) => page.locator('.zy-tags-view [role=tab]').allInnerTexts();
  const refusal = '数据正在处理，请勿重复提交';
  const activeTab = (page: Page, want: string) =>
    page.waitForFunction((p) => document.querySelector('.zy-tags-view [aria-selected="true"]')?.getAttribute('data-path') === p, want);

  it('two pages opened within 200 ms both show their data (identical reads share one request)', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
    // Any refusal toast at any moment counts (toasts vanish after 3 s).
    await page.evaluate((text) => {
      const w = window as unknown as { refused: boolean };
      w.refused = false;
      new MutationObserver(() => {
        if (document.body.textContent?.includes(text)) w.refused = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    }, refusal);
    // 学生志愿 asks for the experts (its 负责专家 filter); 领导审批, opened right after, asks for the same list.
    const firstAsk = page.waitForRequest((r) => r.url().endsWith('/dev-api/api/AdvanceApproval/experts'));
    await go(page, '/volunteer/list');
    await firstAsk;
    // Opened at once (well within 200 ms of the first page's read).
    await go(page, '/volunteer/advanceApproval');
    await activeTab(page, '/volunteer/advanceApproval');
    await page.getByRole('tab', { name: /专家列表（[1-9]\d*）/ }).waitFor({ timeout: 5000 });
    // 领导审批 opens on the plans waiting for approval.
    await page.getByRole('tab', { name: '待审批方案', selected: true }).waitFor();
    await page.screenshot({ path: path.join(screenshotDir, 'console-leader-approval.png') });
    // Back on 学生志愿, its filter offers the experts.
    await page.locator('.zy-tags-view [role=tab]', { hasText: '学生志愿' }).click();
    await activeTab(page, '/volunteer/list');
    await page.locator('.ant-form-item:visible', { hasText: '负责专家' }).locator('.ant-select').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => (window as unknown as { refused: boolean }).refused)).toBe(false);
    await page.context().close();
  });

  it('a second user signing in after a logout sees only their own tabs and lands on 首页', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
    await go(page, '/system/user');
    await activeTab(page, '/system/user');
    await go(page, '/system/menu');
    await activeTab(page, '/system/menu');
    expect(await tabTexts(page)).toEqual(['首页', '用户管理', '菜单管理']);

    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByText('退出登录').click();
    await page.getByText('确定退出系统吗？').waitFor();
    await page.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL('**/login**');
    expect(await page.evaluate(() => [localStorage.getItem('routerData'), localStorage.getItem('routerDataAll')])).toEqual([null, null]);

    // The expert may not open 菜单管理: no /405, no admin tabs.
    await page.getByPlaceholder('账号 / 手机号').fill('expert');
    await page.getByPlaceholder('密码').fill('expert123');
    await page.getByRole('button', { name: /登\s*录/ }).click();
    await page.waitForURL('**/index');
    await page.locator('.zy-tags-view [role=tab]').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/index');
    expect(await tabTexts(page)).toEqual(['首页']);
    await page.context().close();
  });

  it('with 20 tabs open the active tab is in view, and the wheel scrolls the tab bar', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
    // Twenty of admin's menu pages (no parameters, not the fixed pages).
    const paths = await page.evaluate(() =>
      (JSON.parse(localStorage.getItem('routerData') ?? '[]') as string[]).filter(
        (p) => p.split('/').length === 3 && !p.includes(':') && !p.startsWith('/user/') && !p.startsWith('/redirect') && /^\/[a-z]/i.test(p),
      ),
    );
    expect(paths.length).toBeGreaterThanOrEqual(20);
    for (const p of paths.slice(0, 20)) {
      await go(page, p);
      await activeTab(page, p);
    }
    expect((await tabTexts(page)).length).toBeGreaterThanOrEqual(20);
    const inView = () =>
      page.evaluate(() => {
        const bar = document.querySelector('.zy-tags-view') as HTMLElement;
        const active = bar.querySelector('[aria-selected="true"]') as HTMLElement;
        const b = bar.getBoundingClientRect();
        const a = active.getBoundingClientRect();
        return { inside: a.left >= b.left - 1 && a.right <= b.right + 1, overflow: bar.scrollWidth > bar.clientWidth, barRight: b.right, width: innerWidth };
      });
    // Let the bar settle (it scrolls after the tab renders).
    await page.waitForTimeout(100);
    const last = await inView();
    expect(last.overflow).toBe(true);
    expect(last.inside).toBe(true);
    // The bar stays inside the window instead of widening the page.
    expect(last.barRight).toBeLessThanOrEqual(last.width);
    await page.screenshot({ path: path.join(screenshotDir, 'console-tags-20.png') });

    // The wheel moves the bar back to the start; choosing the second tab from the left brings it into view again.
    const scrollLeft = () => page.locator('.zy-tags-view').evaluate((el) => el.scrollLeft);
    const before = await scrollLeft();
    await page.locator('.zy-tags-view').hover();
    await page.mouse.wheel(0, -5000);
    await page.waitForFunction((b) => (document.querySelector('.zy-tags-view') as HTMLElement).scrollLeft < b, before);
    await page.locator('.zy-tags-view [role=tab]').nth(1).click();
    await go(page, paths[19]);
    await page.waitForTimeout(100);
    expect((await inView()).inside).toBe(true);
    await page.context().close();
  });

  /** Boxes of the first data row: any fixed cell that lies over a data cell, and whether the last column can be reached. */
  const overlaps = (page: Page) =>
    page.evaluate(() => {
      const problems: string[] = [];
      // Kept pages stay in the document, hidden: measure the one on screen.
      const table = [...document.querySelectorAll<HTMLElement>('.ant-table')].find((t) => t.checkVisibility() && t.querySelector('tr.ant-table-row'));
      if (!table) return { problems: ['没有显示中的表格'], reachable: false, pageScrolls: false };
      const row = table.querySelector('.ant-table-tbody tr.ant-table-row') as HTMLElement;
      const cells = [...row.children] as HTMLElement[];
      const isFixed = (c: HTMLElement) => c.className.includes('ant-table-cell-fix');
      const fixed = cells.filter(isFixed);
      const data = cells.filter((c) => !isFixed(c));
      for (const f of fixed) {
        const fb = f.getBoundingClientRect();
        for (const d of data) {
          const db = d.getBoundingClientRect();
          const overlap = Math.min(fb.right, db.right) - Math.max(fb.left, db.left);
          if (overlap > 1) problems.push(`${f.textContent?.trim()} 覆盖 ${d.textContent?.trim()}（${Math.round(overlap)} px）`);
        }
      }
      // Scrolled to the end, the last column is fully inside the table's box.
      const scroller = (table.querySelector('.ant-table-content') ?? table.querySelector('.ant-table-body')) as HTMLElement;
      scroller.scrollLeft = scroller.scrollWidth;
      const lastCell = cells[cells.length - 1].getBoundingClientRect();
      const box = scroller.getBoundingClientRect();
      const reachable = lastCell.right <= box.right + 1 && lastCell.left >= box.left - 1;
      scroller.scrollLeft = 0;
      return { problems, reachable, pageScrolls: document.documentElement.scrollWidth > innerWidth + 1 };
    });

  it.each([1440, 800])('at %i px no fixed column covers a data cell and the last column can be scrolled to', async (width) => {
    const page = await newPage(browser, width, 900);
    await signIn(page, 'admin', 'admin123');
    for (const [to, name] of [
      ['/system/user', '用户管理'],
      ['/volunteer/list', '学生志愿'],
      ['/volunteer/savevolunteer', '志愿保存'],
      ['/system/menu', '菜单管理'],
    ]) {
      await go(page, to);
      await activeTab(page, to);
      await page.waitForFunction(() => [...document.querySelectorAll('.ant-table')].some((t) => t.checkVisibility() && t.querySelector('tr.ant-table-row')));
      await page.waitForTimeout(200);
      const result = await overlaps(page);
      expect({ page: name, ...result }).toEqual({ page: name, problems: [], reachable: true, pageScrolls: false });
      if (to === '/system/user') await page.screenshot({ path: path.join(screenshotDir, `console-user-${width}.png`) });
    }
    await page.context().close();
  });

  it('a first visit of a list page after 首页 has settled shows no loading fallback', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
    // The console fetches the list page's code and writes its styles while 首页 is shown (src/router/prefetchPages.tsx).
    await page.locator('[data-style-warmup]').waitFor({ state: 'attached', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    // A page that suspends shows its fallback spinner and React then holds the page back for 300 ms: count any
    // stand-alone spinner (not a table's own loading state) that appears during the switch.
    await page.evaluate(() => {
      const w = window as unknown as { __fallbacks: number };
      w.__fallbacks = 0;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes) {
            if (!(n instanceof Element)) continue;
            const spins = [...(n.matches('.ant-spin') ? [n] : []), ...n.querySelectorAll('.ant-spin')];
            if (spins.some((s) => !s.closest('.ant-spin-nested-loading, [data-style-warmup]'))) w.__fallbacks += 1;
          }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await go(page, '/system/config');
    await page.locator('.engine-list[data-resource="sys_config"] tr.ant-table-row').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __fallbacks: number }).__fallbacks)).toBe(0);
    await page.context().close();
  });

  it('switching tabs rewrites no style sheet the console already has (no whole-page restyle)', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
    await go(page, '/system/config');
    await page.locator('.engine-list[data-resource="sys_config"] tr.ant-table-row').first().waitFor();
    await page.locator('.zy-tags-view [role=tab]', { hasText: '首页' }).click();
    await activeTab(page, '/index');
    await page.waitForLoadState('networkidle');
    // New component styles may be added; an existing <style> whose text is replaced makes the browser restyle every
    // element its rules touch. Two copies of @ant-design/icons did that on each switch, both writing their own icon CSS
    // into the one shared <style>.
    await page.evaluate(() => {
      const w = window as unknown as { __rewrites: string[] };
      w.__rewrites = [];
      new MutationObserver((records) => {
        for (const r of records) {
          const style = r.target.nodeType === Node.ELEMENT_NODE ? (r.target as Element) : r.target.parentElement;
          if (style?.nodeName === 'STYLE' && style.isConnected)
            w.__rewrites.push(
              style
                .getAttributeNames()
                .filter((a) => a.startsWith('data-'))
                .map((a) => `${a}=${style.getAttribute(a)}`)
                .join(' '),
            );
        }
      }).observe(document.head, { subtree: true, childList: true, characterData: true });
    });
    for (const [tab, path] of [
      ['参数设置', '/system/config'],
      ['首页', '/index'],
      ['参数设置', '/system/config'],
    ]) {
      await page.locator('.zy-tags-view [role=tab]', { hasText: tab }).click();
      await activeTab(page, path);
      await page.waitForTimeout(300);
    }
    expect(await page.evaluate(() => (window as unknown as { __rewrites: string[] }).__rewrites)).toEqual([]);
    await page.context().close();
  });

  it('a return to an open tab shows the kept page at once: no request, the same table, the selection kept', async () => {
    const page = await newPage(browser, 1440, 900);
    await signIn(page, 'admin', 'admin123');
    await go(page, '/system/config');
    const list = page.locator('.engine-list[data-resource="sys_config"]');
    const firstRow = list.locator('tr.ant-table-row').first();
    await firstRow.waitFor();
    await firstRow.locator('.ant-checkbox-input').check();
    // The toolbar's 删除 (filled), not the rows' link buttons: enabled only while rows are selected.
    const remove = list.locator('button.ant-btn-variant-filled', { hasText: /删\s*除/ });
    await expect.poll(() => remove.isEnabled()).toBe(true);
    // Marks this very element: a page mounted again would come back without the mark.
    await list.evaluate((el) => el.setAttribute('data-kept', 'yes'));

    await page.locator('.zy-tags-view [role=tab]', { hasText: '首页' }).click();
    await activeTab(page, '/index');
    // 首页 may refresh its own data in the background when it is shown again (older than 30 s on a slow machine).
    await page.waitForLoadState('networkidle');
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/dev-api/') || r.url().includes('/appv2/')) asked.push(new URL(r.url()).pathname);
    });
    await page.locator('.zy-tags-view [role=tab]', { hasText: '参数设置' }).click();
    await activeTab(page, '/system/config');
    await firstRow.waitFor();
    expect(await list.getAttribute('data-kept')).toBe('yes');
    expect(await firstRow.locator('.ant-checkbox-input').isChecked()).toBe(true);
    expect(await remove.isEnabled()).toBe(true);
    await page.screenshot({ path: path.join(screenshotDir, 'console-kept-tab.png') });
    // Its data is well within the 30 s freshness: nothing is asked for (a late request would show up here).
    await page.waitForTimeout(500);
    expect(asked).toEqual([]);
    await page.context().close();
  });

  it('the top navigation fits one row with 更多菜单, the platform watermark is drawn, and 个人中心 is in the avatar menu', async () => {
    const page = await newPage(browser, 1280, 900);
    await page.addInitScript(() => localStorage.setItem('layout-setting', JSON.stringify({ topNav: true, tagsView: true, fixedHeader: true })));
    await signIn(page, 'admin', 'admin123');
    const nav = page.locator('.zy-top-nav');
    await nav.getByText('更多菜单').waitFor();
    // 1280 / 3 / 85 = 5 entries, then 更多菜单, all on the navbar's one row above the tab bar.
    const boxes = await nav.locator(':scope > li:visible').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    expect(boxes.length).toBe(6);
    expect(new Set(boxes.map(Math.round)).size).toBe(1);
    const navbar = await page.locator('.zy-navbar').boundingBox();
    const tags = await page.locator('.zy-tags-view').boundingBox();
    expect(navbar?.height).toBe(50);
    expect((navbar?.y ?? 0) + (navbar?.height ?? 0)).toBeLessThanOrEqual((tags?.y ?? 0) + 1);
    // 平台设置's watermark (seeded 志愿填报) lies over the console.
    await page.locator('.zy-watermark').waitFor({ state: 'attached' });
    await page.screenshot({ path: path.join(screenshotDir, 'console-topnav-watermark.png') });

    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByRole('button', { name: '个人中心' }).click();
    await page.waitForURL('**/user/profile');
    await page.context().close();
  });
});
