import type { Insertable } from 'kysely';
import type { Database } from '../db/types.js';

/** What differs between the accounts the code creates (seeded demo staff, the first administrator, self-registration). */
export interface NewUser {
  userName: string;
  nickName: string;
  /** Already hashed (server/security/password.ts). */
  password: string;
  createTime: number;
  /** Only where the id is fixed (the seeded demo accounts); otherwise the database numbers it. */
  userId?: number;
  deptId?: number | null;
  mobile?: string | null;
  /** 1: may run 诊断 (the seeded staff and administrators). */
  diagnosis?: number;
  remark?: string | null;
  /** The account's store (issue 22 store scope); null: none. */
  storeId?: number | null;
}

/** A new, enabled, unlocked sys_user row: one place for the columns every creation sets the same way. */
export function newUserRow(u: NewUser): Insertable<Database['sysUser']> {
  return {
    ...(u.userId !== undefined ? { userId: u.userId } : {}),
    deptId: u.deptId ?? null,
    userName: u.userName,
    nickName: u.nickName,
    mobile: u.mobile ?? null,
    email: null,
    sex: '2',
    avatar: null,
    password: u.password,
    status: '0',
    delFlag: '0',
    diagnosis: u.diagnosis ?? 0,
    pwdFailCount: 0,
    lockUntil: null,
    loginIp: null,
    loginDate: null,
    createTime: u.createTime,
    updateTime: null,
    remark: u.remark ?? null,
    version: 1,
    storeId: u.storeId ?? null,
  };
}
