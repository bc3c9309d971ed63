import { getUserInfo } from '@/api/platform';
import { request } from '@/api/request';
import type { CheckRow } from './checkRows';

/**
 * /test1 连接检测: can this browser reach the server, sign and decrypt its calls, and is the session valid. Each
 * check answers its own row; none throws.
 */

/** The server's health answer (GET /health, no envelope), its round trip and the server's clock. */
export async function serverCheck(now: () => number = Date.now): Promise<CheckRow[]> {
  const started = now();
  try {
    const res = await fetch('/health', { cache: 'no-store' });
    const ms = Math.max(0, Math.round(now() - started));
    const body = (await res.json().catch(() => null)) as { status?: string } | null;
    if (!res.ok || body?.status !== 'UP') {
      return [
        {
          key: 'server',
          item: '服务器连接',
          status: 'error',
          detail: `服务器应答异常（HTTP ${res.status}）`,
          advice: '请稍后重试；持续出现请联系管理员检查服务器',
        },
      ];
    }
    const rows: CheckRow[] = [
      ms > 1000
        ? { key: 'server', item: '服务器连接', status: 'warn', detail: `已连接，往返 ${ms} 毫秒`, advice: '网络较慢：页面加载和保存会变慢，请检查网络' }
        : { key: 'server', item: '服务器连接', status: 'ok', detail: `已连接，往返 ${ms} 毫秒` },
    ];
    const serverDate = Date.parse(res.headers.get('date') ?? '');
    if (!Number.isNaN(serverDate)) {
      // The Date header has whole seconds: half the round trip and a second of rounding are no skew.
      const skew = Math.round((started + ms / 2 - serverDate) / 1000);
      rows.push(
        Math.abs(skew) > 60
          ? {
              key: 'clock',
              item: '本机时间',
              status: 'warn',
              detail: `本机时间比服务器${skew > 0 ? '快' : '慢'} ${Math.abs(skew)} 秒`,
              advice: '请校准电脑时间（设置 → 时间和语言 → 自动设置时间）；控制台会按服务器时间签名，但其他网站可能出错',
            }
          : { key: 'clock', item: '本机时间', status: 'ok', detail: '与服务器一致' },
      );
    }
    return rows;
  } catch {
    return [{ key: 'server', item: '服务器连接', status: 'error', detail: '无法连接服务器', advice: '请检查网络连接；网络正常时请联系管理员确认服务已启动' }];
  }
}

/**
 * A signed call whose answer comes back encrypted (RSA-wrapped AES key, compressed): the console's whole protocol.
 * It asks for the navbar notice (getNoteDesc), a read with no side effect: platformInfo would count a page view
 * (docs/home.md) every time a user runs the check.
 */
export async function protocolCheck(): Promise<CheckRow> {
  try {
    const env = await request<{ tips_title?: string }>({
      url: '/dev-api/api/Systerm/getNoteDesc',
      method: 'post',
      data: {},
      options: { repeatSubmit: false, encrypt: true, silent: true },
    });
    return env.code === 200 && env.data
      ? { key: 'protocol', item: '加密通信', status: 'ok', detail: '签名、加密与解密均成功' }
      : { key: 'protocol', item: '加密通信', status: 'error', detail: env.msg || '服务器没有按加密方式应答', advice: '请刷新页面后重试；持续出现请联系管理员' };
  } catch (e) {
    return {
      key: 'protocol',
      item: '加密通信',
      status: 'error',
      detail: (e as Error).message || '加密请求失败',
      advice: '请刷新页面后重试；持续出现请联系管理员',
    };
  }
}

export async function sessionCheck(): Promise<CheckRow> {
  try {
    const me = await getUserInfo();
    return { key: 'session', item: '登录状态', status: 'ok', detail: `已登录：${me.realName || me.userName}（${me.roleName}）` };
  } catch {
    return { key: 'session', item: '登录状态', status: 'error', detail: '登录已失效', advice: '请重新登录' };
  }
}
