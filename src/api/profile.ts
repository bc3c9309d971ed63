import { request } from './request';

export interface ProfileUser {
  userId: number;
  userName: string;
  nickName: string;
  mobile: string | null;
  email: string | null;
  sex: string;
  avatar: string | null;
  createTime: number;
  version: number;
  deptName: string | null;
}

export interface Profile {
  user: ProfileUser;
  roleGroup: string;
  postGroup: string;
}

export async function getProfile(): Promise<Profile> {
  const env = await request<ProfileUser>({ url: '/dev-api/system/user/profile', method: 'get' });
  return { user: env.data as ProfileUser, roleGroup: String(env.roleGroup ?? '--'), postGroup: String(env.postGroup ?? '') };
}

/** Saves one's own info; the version guards against a concurrent edit. Resolves with the new version. */
export async function updateProfile(body: { nickName: string; mobile: string | null; email: string | null; sex?: string; version: number }): Promise<number> {
  const env = await request<{ version: number }>({ url: '/dev-api/system/user/profile', method: 'put', data: body });
  return env.data?.version ?? body.version + 1;
}

/** Uploads the cropped avatar; resolves with its address. */
export async function uploadAvatar(file: Blob): Promise<string> {
  const form = new FormData();
  form.append('avatarfile', file, 'avatar.png');
  const env = await request<{ imgUrl: string }>({
    url: '/dev-api/system/user/profile/avatar',
    method: 'post',
    data: form,
    headers: { 'Content-Type': 'multipart/form-data' },
  });
  return env.data?.imgUrl ?? String(env.imgUrl);
}
