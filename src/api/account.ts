import { request } from './request';

export interface SavePassBody {
  /** The account's mobile, when it has one (the server checks it matches). */
  mobile?: string;
  /** Optional: new users have no old password to give. */
  oldpass?: string;
  qrPass: string;
  pass: string;
}

/** Changes the password (spec §5); resolves with the server's message (修改成功). */
export async function savePass(body: SavePassBody): Promise<string> {
  const env = await request({ url: '/dev-api/api/account/savePass', method: 'post', data: body });
  return env.msg;
}
