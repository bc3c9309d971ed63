import type { RouterItem } from '@common/menu/routes';

/** A RuoYi table page. */
export interface TablePage<T> {
  rows: T[];
  total: number;
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
