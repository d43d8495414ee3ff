import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { GroupRow, PageResult, UserRow } from '@sc/contracts';
import { AccessCache } from '../auth/access-cache.service';
import { PasswordService } from '../auth/password.service';
import { SessionService } from '../auth/session.service';
import { AppException } from '../common/app-exception';
import { ADVISORY_LOCK, isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import type { CreateUserDto, GroupAddOrEditDto, GroupPageDto, UpdateUserDto, UserPageDto } from './dto/users.dto';
import { InjectDb } from '../infra/database';

const USER_COLUMNS = `u.id, u.username, u.group_id AS "groupId", g.group_name AS "groupName",
  CASE WHEN g.is_admin THEN 1 ELSE 0 END AS "isAdmin", g.permission_menu AS permission, u.enabled,
  u.introduction, u.last_login_at AS "lastLoginDate", u.created_at AS "createdAt"`;

@Injectable()
export class UsersService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionService,
    private readonly cache: AccessCache,
  ) {}

  /**
   * A page of users with its exact total. Pages are cached until any user or group changes (see AccessCache), so
   * operators paging the same lists do not recount the table each time.
   */
  async page(q: UserPageDto): Promise<PageResult<UserRow>> {
    const key = JSON.stringify([q.pageNum, q.pageSize, q.username, q.groupId, q.enabled, q.lastLoginFrom, q.lastLoginTo]);
    const cached = this.cache.page<PageResult<UserRow>>(key);
    if (cached) return cached;
    const epoch = this.cache.pageEpoch;
    const where = new Where()
      .addIf(q.username, `lower(u.username) LIKE ?`, q.username && likeContains(q.username))
      .addIf(q.groupId, `u.group_id = ?`)
      .addIf(q.enabled, `u.enabled = ?`)
      .addIf(q.lastLoginFrom, `u.last_login_at >= ?`)
      .addIf(q.lastLoginTo, `u.last_login_at <= ?`);
    const result = await pagedQuery<UserRow>(this.db, {
      select: USER_COLUMNS,
      from: 'sys_user u JOIN sys_group g ON g.id = u.group_id',
      countFrom: 'sys_user u',
      where,
      orderBy: 'u.id DESC',
      outerOrderBy: 'page.id DESC',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
    this.cache.storePage(key, result, result.list.length, epoch);
    return result;
  }

  async create(dto: CreateUserDto): Promise<{ id: number }> {
    this.passwords.assertAcceptable(dto.password);
    await this.assertGroupExists(this.db.manager, dto.groupId);
    try {
      const rows: { id: number }[] = await this.db.query(
        `INSERT INTO sys_user (username, password_hash, group_id, enabled, introduction) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [dto.username, await this.passwords.hash(dto.password), dto.groupId, dto.enabled ?? true, dto.introduction ?? ''],
      );
      this.cache.apply({ kind: 'users' });
      return { id: rows[0].id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('username', 'usernameTaken', { name: dto.username });
      if (isForeignKeyViolation(err)) throw AppException.field('groupId', 'groupNotFound');
      throw err;
    }
  }

  /** Disabling a user or resetting their password ends all their sessions, in the same transaction. */
  async update(caller: Caller, dto: UpdateUserDto): Promise<void> {
    // An absent password, or null (as an optional field may be sent), leaves the password as it is.
    const password = dto.password ?? undefined;
    if (password !== undefined) this.passwords.assertAcceptable(password);
    const passwordHash = password !== undefined ? await this.passwords.hash(password) : undefined;
    try {
      await this.db.transaction(async (tx) => {
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [ADVISORY_LOCK.administrators]);
        const [current]: { enabled: boolean }[] = await tx.query(`SELECT enabled FROM sys_user WHERE id = $1 FOR UPDATE`, [dto.id]);
        if (!current) throw AppException.notFound();
        if (dto.enabled === false && dto.id === caller.userId) throw AppException.field('enabled', 'cannotDisableSelf');
        if (dto.groupId !== undefined) await this.assertGroupExists(tx, dto.groupId);
        await tx.query(
          `UPDATE sys_user SET group_id = coalesce($2, group_id), enabled = coalesce($3, enabled),
                  password_hash = coalesce($4, password_hash), introduction = coalesce($5, introduction), updated_at = now()
            WHERE id = $1`,
          [dto.id, dto.groupId ?? null, dto.enabled ?? null, passwordHash ?? null, dto.introduction ?? null],
        );
        await this.assertAnAdminRemains(tx);
        if ((dto.enabled === false && current.enabled) || passwordHash !== undefined) await this.sessions.revokeAllOf(dto.id, { tx });
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw AppException.field('groupId', 'groupNotFound');
      throw err;
    }
    // After the commit: the user's cached sessions go, and their sockets are re-checked.
    this.cache.apply({ kind: 'access', userIds: [dto.id] });
  }

  async groupPage(q: GroupPageDto): Promise<PageResult<GroupRow>> {
    return pagedQuery<GroupRow>(this.db, {
      select: `g.id, g.group_name AS "groupName", CASE WHEN g.is_admin THEN 1 ELSE 0 END AS "isAdmin",
               g.permission_menu AS "permissionMenu", g.remark, g.created_at AS "createdAt",
               (SELECT count(*)::int FROM sys_user u WHERE u.group_id = g.id) AS "userCount"`,
      from: 'sys_group g',
      where: new Where().addIf(q.groupName, `lower(g.group_name) LIKE ?`, q.groupName && likeContains(q.groupName)),
      orderBy: 'g.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async saveGroup(dto: GroupAddOrEditDto): Promise<{ id: number }> {
    // Administrators get everything; a stored menu would only mislead.
    const menu = dto.isAdmin === 1 ? [] : [...new Set(dto.permissionMenu)];
    try {
      const saved = await this.db.transaction(async (tx) => {
        if (dto.id === undefined) {
          const rows: { id: number }[] = await tx.query(
            `INSERT INTO sys_group (group_name, is_admin, permission_menu, remark) VALUES ($1, $2, $3, $4) RETURNING id`,
            [dto.groupName, dto.isAdmin === 1, menu, dto.remark ?? ''],
          );
          return { id: rows[0].id };
        }
        await tx.query(`SELECT pg_advisory_xact_lock($1)`, [ADVISORY_LOCK.administrators]);
        const [, affected] = (await tx.query(
          `UPDATE sys_group SET group_name = $2, is_admin = $3, permission_menu = $4, remark = coalesce($5, remark), updated_at = now() WHERE id = $1`,
          [dto.id, dto.groupName, dto.isAdmin === 1, menu, dto.remark ?? null],
        )) as [unknown, number];
        if (!affected) throw AppException.notFound('groupNotFound');
        await this.assertAnAdminRemains(tx);
        return { id: dto.id };
      });
      this.cache.apply({ kind: 'groups' });
      return saved;
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('groupName', 'groupNameTaken', { name: dto.groupName });
      throw err;
    }
  }

  async deleteGroup(id: number): Promise<void> {
    const users: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM sys_user WHERE group_id = $1`, [id]);
    if (users[0].n > 0) throw AppException.conflict('groupInUse', { count: users[0].n });
    try {
      const [, affected] = (await this.db.query(`DELETE FROM sys_group WHERE id = $1`, [id])) as [unknown, number];
      if (!affected) throw AppException.notFound('groupNotFound');
    } catch (err) {
      // A user was put into the group between the count and the delete.
      if (isForeignKeyViolation(err)) throw AppException.conflict('groupInUse', { count: 1 });
      throw err;
    }
    this.cache.apply({ kind: 'groups' });
  }

  private async assertGroupExists(tx: EntityManager, groupId: number): Promise<void> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM sys_group WHERE id = $1`, [groupId]);
    if (rows.length === 0) throw AppException.field('groupId', 'groupNotFound');
  }

  /** Refuses a change that would leave no enabled administrator (callers hold the administrators lock). */
  private async assertAnAdminRemains(tx: EntityManager): Promise<void> {
    const rows: { n: number }[] = await tx.query(
      `SELECT count(*)::int AS n FROM sys_user u JOIN sys_group g ON g.id = u.group_id WHERE g.is_admin AND u.enabled`,
    );
    if (rows[0].n === 0) throw AppException.conflict('cannotDemoteLastAdmin');
  }
}
