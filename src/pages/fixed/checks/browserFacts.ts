import type { CheckRow } from './checkRows';

/**
 * /test2 浏览器检测: what the console needs of the browser, judged from facts the page reads (kept apart from the
 * page so they can be tested with any user agent).
 */
export interface BrowserFacts {
  userAgent: string;
  width: number;
  height: number;
  pixelRatio: number;
  cookies: boolean;
  storage: boolean;
}

/** The browsers the console is built and tested for (vite's default targets: the last versions of 2021 and later). */
const MINIMUM: Record<string, number> = { Chrome: 100, Edge: 100, Firefox: 100, Safari: 15 };

export function browserOf(userAgent: string): { name: string; version: number | null } {
  const edge = /Edg\/(\d+)/.exec(userAgent);
  if (edge) return { name: 'Edge', version: Number(edge[1]) };
  const firefox = /Firefox\/(\d+)/.exec(userAgent);
  if (firefox) return { name: 'Firefox', version: Number(firefox[1]) };
  const chrome = /(?:Chrome|Chromium)\/(\d+)/.exec(userAgent);
  if (chrome) return { name: 'Chrome', version: Number(chrome[1]) };
  const safari = /Version\/(\d+)[\d.]* .*Safari\//.exec(userAgent);
  if (safari) return { name: 'Safari', version: Number(safari[1]) };
  return { name: '未知浏览器', version: null };
}

export function browserChecks(f: BrowserFacts): CheckRow[] {
  const b = browserOf(f.userAgent);
  const minimum = MINIMUM[b.name];
  const named = b.version == null ? b.name : `${b.name} ${b.version}`;
  const rows: CheckRow[] = [
    minimum === undefined || b.version == null
      ? { key: 'browser', item: '浏览器', status: 'warn', detail: named, advice: '未经测试的浏览器，建议使用最新版 Chrome 或 Edge' }
      : b.version < minimum
        ? {
            key: 'browser',
            item: '浏览器',
            status: 'error',
            detail: `${named}（低于 ${b.name} ${minimum}）`,
            advice: `请升级到 ${b.name} ${minimum} 或更高版本，或改用最新版 Chrome、Edge`,
          }
        : { key: 'browser', item: '浏览器', status: 'ok', detail: named },
    f.width < 1280
      ? {
          key: 'window',
          item: '窗口大小',
          status: 'warn',
          detail: `${f.width} × ${f.height} 像素`,
          advice: '窗口较窄，部分表格需要左右滚动；建议宽度不小于 1280 像素（可最大化窗口或调小浏览器缩放）',
        }
      : { key: 'window', item: '窗口大小', status: 'ok', detail: `${f.width} × ${f.height} 像素（缩放 ${Math.round(f.pixelRatio * 100)}%）` },
    f.cookies
      ? { key: 'cookies', item: 'Cookie', status: 'ok', detail: '已启用' }
      : { key: 'cookies', item: 'Cookie', status: 'error', detail: '已禁用', advice: '登录状态保存在 Cookie 中：请在浏览器设置中允许本站使用 Cookie' },
    f.storage
      ? { key: 'storage', item: '本地存储', status: 'ok', detail: '可用' }
      : {
          key: 'storage',
          item: '本地存储',
          status: 'error',
          detail: '不可用',
          advice: '标签页、表格列设置等保存在本地存储中：请关闭无痕/隐私模式，或在设置中允许本站存储数据',
        },
  ];
  return rows;
}

/** The facts of the browser this page runs in. */
export function currentBrowserFacts(): BrowserFacts {
  let storage = false;
  try {
    window.localStorage.setItem('zy-check', '1');
    window.localStorage.removeItem('zy-check');
    storage = true;
  } catch {
    storage = false;
  }
  return {
    userAgent: navigator.userAgent,
    width: window.innerWidth,
    height: window.innerHeight,
    pixelRatio: window.devicePixelRatio || 1,
    cookies: navigator.cookieEnabled,
    storage,
  };
}
