/** A role as the user screens offer it (用户管理 form, 分配角色): server/system/userRoutes.ts lists the active ones. */
export interface RoleChoice {
  roleId: number;
  roleName: string;
  roleKey: string;
  roleSort: number;
  status: string;
  createTime: number;
  /** Held by the user (authRole only). */
  flag?: boolean;
}
