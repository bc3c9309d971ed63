import type { RouterItem } from '@/router/types';

export type { RouterItem };

/** The answer envelope of every call (spec §8): `data` for single values, `rows`/`total` for RuoYi lists. */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data?: T;
  rows?: unknown[];
  total?: number;
  [extra: string]: unknown;
}

/** A RuoYi table page. */
export interface TablePage<T> {
  rows: T[];
  total: number;
}

/** Platform info (spec §3), from /appv2/api/index/platformInfo. */
export interface PlatformInfo {
  title: string;
  expiredate: string;
  expiredate_time: number;
  /** The licence has expired: the guard sends signed-in users to /beOverdue. */
  expired: boolean;
  favicon: string | null;
  watermark: string | null;
  h5addr: string | null;
  logo: string | null;
  smalllogo: string | null;
  qrUrl: string | null;
  mobile: { kf_phone: string | null };
  pv: number | null;
  registerNum: number | null;
  wxapp: string | null;
  appdown: string | null;
  gwaddr: string | null;
  appId: string | null;
  storeId: number | null;
  registerEnabled: boolean;
}

/** The signed-in user (spec §3 User session), from /appv2/api/apply/userInfo. */
export interface UserInfo {
  userId: number;
  userName: string;
  realName: string;
  roleName: string;
  roleId: number;
  roles: string[];
  mobile: string;
  avatar: string | null;
  diagnosis: boolean;
}

/** Navbar tips and scrolling notice, from /dev-api/api/Systerm/getNoteDesc. */
export interface NoteDesc {
  tips_title: string;
  tips: string[];
  gddesc: string;
}

export interface RuleList {
  routes: RouterItem[];
  permissions: string[];
  roles: string[];
}
