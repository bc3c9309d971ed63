import type { SavePassBody } from '@common/system/account';
import { request } from './request';

export type { SavePassBody };

/** Changes the password (spec §5); resolves with the server's message (修改成功). */
export async function savePass(body: SavePassBody): Promise<string> {
  const env = await request({ url: '/dev-api/api/account/savePass', method: 'post', data: body });
  return env.msg;
}
