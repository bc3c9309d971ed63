import type { FrameLocator, Page } from 'playwright-core';
import { signIn } from './browser';

/**
 * Steps several volunteer browser tests share: an expert opening a student's 智能填报 from 学生志愿, and the 工具箱
 * site opened as the console frames it.
 */

/** Signs in as the seeded expert and opens the filling screen of `student` from 学生志愿, waiting for its options. */
export async function openFilling(page: Page, student: string): Promise<void> {
  await signIn(page, 'expert', 'expert123');
  await page.goto('/volunteer/list');
  const row = page.locator('.ant-table-row', { hasText: student });
  await row.waitFor();
  await row.getByRole('button', { name: /填\s*报/ }).click();
  await page.locator('.zy-options-table .ant-table-row').first().waitFor();
}

/**
 * One tool of the 工具箱 site in a frame, the session handed over by postMessage as the console does (the site asks
 * with toolboxReady and takes the token from its framing window).
 */
export async function openTool(page: Page, name: string, token: string): Promise<FrameLocator> {
  if (!page.url().includes('/toolbox/')) await page.goto('/toolbox/');
  await page.evaluate(
    ({ name, token }) => {
      document.body.innerHTML = '';
      const frame = document.createElement('iframe');
      frame.style.cssText = 'position:fixed;inset:0;width:100%;height:100%;border:0';
      window.onmessage = (e) => {
        if (e.data?.type === 'toolboxReady') frame.contentWindow?.postMessage({ type: 'toolboxToken', token }, '*');
      };
      frame.src = `/toolbox/#/${name}`;
      document.body.appendChild(frame);
    },
    { name, token },
  );
  return page.frameLocator('iframe');
}
