/**
 * 用户资料 (system/userData/index, docs/system.md "用户资料"): an administrator looks up a staff account and sees its
 * details; the password is reset with 用户管理's route (PUT /dev-api/system/user/resetPwd).
 */

/** One account found by GET /dev-api/system/userData/list?keyword=… (account, name or phone). */
export interface UserDataHit {
  userId: number;
  userName: string;
  nickName: string;
  mobile: string | null;
  deptName: string | null;
  /** 0 正常 · 1 停用 */
  status: string;
}

/** GET /dev-api/system/userData/{userId}. Times are epoch ms. */
export interface UserDataDetail extends UserDataHit {
  email: string | null;
  roles: string[];
  storeName: string | null;
  createTime: number | null;
  loginIp: string | null;
  loginDate: number | null;
  /** The super admin: nobody resets its password here (不允许操作超级管理员用户). */
  superAdmin: boolean;
  /** The account is the caller's own: its page is 个人中心. */
  self: boolean;
}
