import { HttpStatus, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ADMIN_PERMISSIONS, ResultCode, buttonsOf, rolesOf, type LoginResult, type UserInfo } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import { AccessCache } from './access-cache.service';
import { LoginThrottleService } from './login-throttle.service';
import { PasswordService } from './password.service';
import { SessionService } from './session.service';
import { InjectDb } from '../infra/database';

interface AccountRow {
  id: number;
  username: string;
  password_hash: string;
  enabled: boolean;
  avatar: string;
  introduction: string;
  is_admin: boolean;
  permission_menu: string[];
}

/** Login `content`: JSON text of the permission objects the user's group grants. */
export function permissionContent(isAdmin: boolean, permissionMenu: string[]): string {
  const names = isAdmin ? [...ADMIN_PERMISSIONS] : permissionMenu;
  return JSON.stringify(names.map((name) => ({ name })));
}

@Injectable()
export class AuthService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionService,
    private readonly throttle: LoginThrottleService,
    private readonly cache: AccessCache,
  ) {}

  private async account(where: 'id' | 'username', value: string | number): Promise<AccountRow | undefined> {
    const condition = where === 'id' ? 'u.id = $1' : 'lower(u.username) = lower($1)';
    const rows: AccountRow[] = await this.db.query(
      `SELECT u.id, u.username, u.password_hash, u.enabled, u.avatar, u.introduction, g.is_admin, g.permission_menu
         FROM sys_user u JOIN sys_group g ON g.id = u.group_id WHERE ${condition}`,
      [value],
    );
    return rows[0];
  }

  async login(username: string, password: string, ip: string, userAgent: string): Promise<LoginResult> {
    await this.throttle.assertAllowed(username, ip);
    const account = await this.account('username', username);
    const ok = await this.passwords.verify(account?.password_hash ?? null, password);
    // assertAllowed has already counted this attempt as a failure; a wrong password leaves it counted.
    if (!account || !ok) throw AppException.badRequest('invalidCredentials');
    await this.throttle.recordSuccess(username, ip);
    // Only a caller who knows the password learns that the account is disabled.
    if (!account.enabled) throw new AppException(HttpStatus.FORBIDDEN, ResultCode.Forbidden, 'accountDisabled');
    await this.db.query(`UPDATE sys_user SET last_login_at = now() WHERE id = $1`, [account.id]);
    this.cache.apply({ kind: 'users' });
    const token = await this.sessions.create(account.id, ip, userAgent);
    return { token, isAdmin: account.is_admin ? 1 : 0, content: permissionContent(account.is_admin, account.permission_menu) };
  }

  async info(caller: Caller): Promise<UserInfo> {
    const account = await this.account('id', caller.userId);
    if (!account) throw AppException.loggedOut();
    const roles = rolesOf(account.is_admin, account.permission_menu);
    return {
      name: account.username,
      avatar: account.avatar,
      introduction: account.introduction,
      content: permissionContent(account.is_admin, account.permission_menu),
      isAdmin: account.is_admin ? 1 : 0,
      roles,
      buttons: buttonsOf(roles),
    };
  }

  /** Changes the caller's password; every other session of theirs ends in the same transaction. */
  async modifyPassword(caller: Caller, oldPassword: string, newPassword: string, confirmPassword: string): Promise<void> {
    if (newPassword !== confirmPassword) throw AppException.field('confirmPassword', 'passwordInconsistency');
    this.passwords.assertAcceptable(newPassword, 'newPassword');
    await this.throttle.assertPasswordCheckAllowed(caller.userId);
    const account = await this.account('id', caller.userId);
    if (!account || !(await this.passwords.verify(account.password_hash, oldPassword))) {
      throw AppException.field('oldPassword', 'oldPasswordWrong');
    }
    await this.throttle.passwordCheckPassed(caller.userId);
    const hash = await this.passwords.hash(newPassword);
    await this.db.transaction(async (tx) => {
      await tx.query(`UPDATE sys_user SET password_hash = $2, updated_at = now() WHERE id = $1`, [caller.userId, hash]);
      await this.sessions.revokeAllOf(caller.userId, { except: caller.sessionId, tx });
    });
    // After the commit: this user's cached sessions go, and their other sockets are re-checked and closed.
    this.cache.apply({ kind: 'access', userIds: [caller.userId] });
  }
}
