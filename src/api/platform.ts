import type { PlatformInfo } from '@common/system/platform';
import { post, request } from './request';
import type { NoteDesc, UserInfo } from './types';

/** Public: the sign-in page needs the title and logo, the guard the licence flag. */
export async function getPlatformInfo(): Promise<PlatformInfo> {
  const env = await request<PlatformInfo>({ url: '/appv2/api/index/platformInfo', method: 'post', data: {}, options: { isToken: false, repeatSubmit: false } });
  return env.data as PlatformInfo;
}

export const getUserInfo = () => post<UserInfo>('/appv2/api/apply/userInfo', {}, { repeatSubmit: false });

/** Navbar tips and notice; silent: a failed refresh every 5 minutes must not toast. */
export const getNoteDesc = () => post<NoteDesc>('/dev-api/api/Systerm/getNoteDesc', {}, { repeatSubmit: false, silent: true });

/** The tool cabinet address (spec §4 Tool drawer). */
export const getPlatformConfig = () => post<{ toolboxaddr: string }>('/dev-api/api/systerm/platformConfig', {}, { repeatSubmit: false, silent: true });
