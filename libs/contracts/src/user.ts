import type { Button } from './roles';
import type { PageQuery } from './envelope';

export const USERNAME_MAX = 32;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;
export const GROUP_NAME_MAX = 32;

export interface LoginRequest {
  username: string;
  password: string;
}

export interface LoginResult {
  token: string;
  /** 1 = administrator, 0 otherwise. */
  isAdmin: 0 | 1;
  /** JSON text listing permission objects, each with a name. */
  content: string;
}

export interface UserInfo {
  name: string;
  avatar: string;
  introduction: string;
  content: string;
  isAdmin: 0 | 1;
  /** Roles as spec section 6 derives them, and the buttons they grant; the server enforces both. */
  roles: string[];
  buttons: Button[];
}

export interface ModifyPasswordRequest {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export interface CreateUserRequest {
  username: string;
  password: string;
  groupId: number;
  enabled?: boolean;
  introduction?: string;
}

export interface UpdateUserRequest {
  id: number;
  groupId?: number;
  enabled?: boolean;
  /** Set by an administrator to reset the password; every session of the user ends. */
  password?: string;
  introduction?: string;
}

export interface UserPageQuery extends PageQuery {
  username?: string;
  groupId?: number;
  enabled?: boolean;
  /** ISO 8601 bounds on the last login. */
  lastLoginFrom?: string;
  lastLoginTo?: string;
}

export interface UserRow {
  id: number;
  username: string;
  groupId: number;
  groupName: string;
  isAdmin: 0 | 1;
  /** The permission names of the user's group. */
  permission: string[];
  enabled: boolean;
  introduction: string;
  lastLoginDate: string | null;
  createdAt: string;
}

export interface GroupPageQuery extends PageQuery {
  groupName?: string;
}

export interface GroupRow {
  id: number;
  groupName: string;
  isAdmin: 0 | 1;
  permissionMenu: string[];
  remark: string;
  userCount: number;
  createdAt: string;
}

export interface GroupAddOrEditRequest {
  id?: number;
  groupName: string;
  isAdmin: 0 | 1;
  permissionMenu: string[];
  remark?: string;
}

export interface PermissionMenuItem {
  name: string;
  buttons: Button[];
}
