import type { RegisterBody } from '@common/system/account';
import { post, request } from './request';
import { clearSessionKey, createSessionKey } from './sessionKey';

export type LoginBody = { username: string; password: string } | { mobile: string; code: string; loginType: 'sms' };

/** Signs in with account + password or mobile + SMS code; resolves with the token. */
export async function login(body: LoginBody): Promise<string> {
  // This sign-in's own key pair: the server wraps answers with its public half (sessionKey.ts, docs/protocol.md).
  const clientKey = await createSessionKey();
  const data = clientKey ? { ...body, clientKey } : body;
  const env = await request<{ token: string }>({ url: '/dev-api/api/login/login', method: 'post', data, options: { isToken: false } });
  const token = env.data?.token ?? (env.token as string | undefined);
  if (!token) throw new Error('登录失败：服务端未返回令牌');
  return token;
}

/** Sends an SMS code (type: 'login' | 'register' | 'reset'); resolves with the server's message. */
export async function sendSmsCode(mobile: string, type: string): Promise<string> {
  const env = await request({ url: '/dev-api/api/index/sendCodev3', method: 'post', data: { mobile, type }, options: { isToken: false } });
  return env.msg;
}

export type { RegisterBody };

export async function register(body: RegisterBody): Promise<string> {
  const env = await request({ url: '/dev-api/register', method: 'post', data: body, options: { isToken: false } });
  return env.msg;
}

export async function logout(): Promise<void> {
  try {
    await post('/dev-api/api/login/logout', {}, { silent: true });
  } finally {
    await clearSessionKey();
  }
}
