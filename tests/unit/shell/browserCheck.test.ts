import { describe, expect, it } from 'vitest';
import { browserChecks, browserOf } from '@/pages/fixed/checks/browserFacts';

/** /test2 浏览器检测: the judgements a user sees, for browsers they really use. */
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const EDGE = `${CHROME} Edg/131.0.2903.70`;
const OLD_CHROME = 'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.198 Safari/537.36';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const QQ = 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 (KHTML, like Gecko) QQBrowser/12.0';

const facts = { width: 1600, height: 900, pixelRatio: 1.25, cookies: true, storage: true };

describe('浏览器检测', () => {
  it('names the browser and its version', () => {
    expect(browserOf(CHROME)).toEqual({ name: 'Chrome', version: 131 });
    expect(browserOf(EDGE)).toEqual({ name: 'Edge', version: 131 });
    expect(browserOf(SAFARI)).toEqual({ name: 'Safari', version: 17 });
    expect(browserOf(FIREFOX)).toEqual({ name: 'Firefox', version: 133 });
  });

  it('all 正常 on a current browser with a wide window', () => {
    const rows = browserChecks({ ...facts, userAgent: EDGE });
    expect(rows.map((r) => [r.item, r.status, r.detail])).toEqual([
      ['浏览器', 'ok', 'Edge 131'],
      ['窗口大小', 'ok', '1600 × 900 像素（缩放 125%）'],
      ['Cookie', 'ok', '已启用'],
      ['本地存储', 'ok', '可用'],
    ]);
  });

  it('says what to do about an old browser, an unknown one, a narrow window, no Cookie and no storage', () => {
    const old = browserChecks({ ...facts, userAgent: OLD_CHROME, width: 1024, cookies: false, storage: false });
    expect(old.map((r) => [r.status, r.advice])).toEqual([
      ['error', '请升级到 Chrome 100 或更高版本，或改用最新版 Chrome、Edge'],
      ['warn', '窗口较窄，部分表格需要左右滚动；建议宽度不小于 1280 像素（可最大化窗口或调小浏览器缩放）'],
      ['error', '登录状态保存在 Cookie 中：请在浏览器设置中允许本站使用 Cookie'],
      ['error', '标签页、表格列设置等保存在本地存储中：请关闭无痕/隐私模式，或在设置中允许本站存储数据'],
    ]);
    expect(browserChecks({ ...facts, userAgent: QQ })[0]).toMatchObject({ status: 'warn', advice: '未经测试的浏览器，建议使用最新版 Chrome 或 Edge' });
  });
});
