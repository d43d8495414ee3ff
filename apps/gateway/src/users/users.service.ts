import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import type { GroupRow, PageResult, UserRow } from '@sc/contracts';
import { PasswordService } from '../auth/password.service';
import { SessionService } from '../auth/session.service';
import { AppException } from '../common/app-exception';
import type { Caller } from '../common/request-context';
import type { CreateUserDto, GroupAddOrEditDto, GroupPageDto, UpdateUserDto, UserPageDto } from './dto/users.dto';

/** Escapes LIKE wildcards so a filter matches its text literally. */
export function likeContains(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === '23505';
}

const USER_COLUMNS = `u.id, u.username, u.group_id AS "groupId", g.group_name AS "groupName",
  CASE WHEN g.is_admin THEN 1 ELSE 0 END AS "isAdmin", g.permission_menu AS permission, u.enabled,
  u.introduction, u.last_login_at AS "lastLoginDate", u.created_at AS "createdAt"`;

@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly passwords: PasswordService,
    private readonly sessions: SessionService,
  ) {}

  async page(q: UserPageDto): Promise<PageResult<UserRow>> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (q.username) add(`lower(u.username) LIKE ?`, likeContains(q.username));
    if (q.groupId !== undefined) add(`u.group_id = ?`, q.groupId);
    if (q.enabled !== undefined) add(`u.enabled = ?`, q.enabled);
    if (q.lastLoginFrom) add(`u.last_login_at >= ?`, q.lastLoginFrom);
    if (q.lastLoginTo) add(`u.last_login_at <= ?`, q.lastLoginTo);
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    // One statement: the page and its exact total come from the same snapshot, over one connection and one round trip.
    // The LEFT JOIN keeps a single row carrying the total (and nulls) when the page is empty.
    const rows: (UserRow & { __total: number })[] = await this.db.query(
      `SELECT page.*, total.n AS "__total"
         FROM (SELECT count(*)::int AS n FROM sys_user u ${filter}) total
         LEFT JOIN LATERAL (
           SELECT ${USER_COLUMNS} FROM sys_user u JOIN sys_group g ON g.id = u.group_id ${filter}
            ORDER BY u.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}
         ) page ON true
        ORDER BY page.id DESC`,
      [...params, q.pageSize, (q.pageNum - 1) * q.pageSize],
    );
    const total = rows[0]?.__total ?? 0;
    const list: UserRow[] = rows[0]?.id == null ? [] : rows.map(({ __total, ...row }) => row);
    return { list, total };
  }

  async create(dto: CreateUserDto): Promise<{ id: number }> {
    this.passwords.assertAcceptable(dto.password);
    await this.assertGroupExists(this.db.manager, dto.groupId);
    try {
      const rows: { id: number }[] = await this.db.query(
        `INSERT INTO sys_user (username, password_hash, group_id, enabled, introduction) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [dto.username, await this.passwords.hash(dto.password), dto.groupId, dto.enabled ?? true, dto.introduction ?? ''],
      );
      return { id: rows[0].id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.conflict('usernameTaken', { name: dto.username });
      throw err;
    }
  }

  async update(caller: Caller, dto: UpdateUserDto): Promise<void> {
    if (dto.password !== undefined) this.passwords.assertAcceptable(dto.password);
    const passwordHash = dto.password !== undefined ? await this.passwords.hash(dto.password) : undefined;
    let endSessions = false;
    await this.db.transaction(async (tx) => {
      const current: { enabled: boolean; group_id: number }[] = await tx.query(`SELECT enabled, group_id FROM sys_user WHERE id = $1 FOR UPDATE`, [
        dto.id,
      ]);
      if (!current[0]) throw AppException.notFound();
      if (dto.enabled === false && dto.id === caller.userId) throw AppException.field('enabled', 'cannotDisableSelf');
      if (dto.groupId !== undefined) await this.assertGroupExists(tx, dto.groupId);
      await tx.query(
        `UPDATE sys_user SET group_id = coalesce($2, group_id), enabled = coalesce($3, enabled),
                password_hash = coalesce($4, password_hash), introduction = coalesce($5, introduction), updated_at = now()
          WHERE id = $1`,
        [dto.id, dto.groupId ?? null, dto.enabled ?? null, passwordHash ?? null, dto.introduction ?? null],
      );
      await this.assertAnAdminRemains(tx);
      endSessions = (dto.enabled === false && current[0].enabled) || passwordHash !== undefined;
    });
    // Disabling a user or resetting their password ends all their sessions at once.
    if (endSessions) await this.sessions.revokeAllOf(dto.id);
  }

  async groupPage(q: GroupPageDto): Promise<PageResult<GroupRow>> {
    const params: unknown[] = [];
    let filter = '';
    if (q.groupName) {
      params.push(likeContains(q.groupName));
      filter = `WHERE lower(g.group_name) LIKE $1`;
    }
    const [list, count] = await Promise.all([
      this.db.query(
        `SELECT g.id, g.group_name AS "groupName", CASE WHEN g.is_admin THEN 1 ELSE 0 END AS "isAdmin",
                g.permission_menu AS "permissionMenu", g.remark, g.created_at AS "createdAt",
                (SELECT count(*)::int FROM sys_user u WHERE u.group_id = g.id) AS "userCount"
           FROM sys_group g ${filter} ORDER BY g.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, q.pageSize, (q.pageNum - 1) * q.pageSize],
      ) as Promise<GroupRow[]>,
      this.db.query(`SELECT count(*)::int AS total FROM sys_group g ${filter}`, params) as Promise<{ total: number }[]>,
    ]);
    return { list, total: count[0]?.total ?? 0 };
  }

  async saveGroup(dto: GroupAddOrEditDto): Promise<{ id: number }> {
    // Administrators get everything; a stored menu would only mislead.
    const menu = dto.isAdmin === 1 ? [] : [...new Set(dto.permissionMenu)];
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.id === undefined) {
          const rows: { id: number }[] = await tx.query(
            `INSERT INTO sys_group (group_name, is_admin, permission_menu, remark) VALUES ($1, $2, $3, $4) RETURNING id`,
            [dto.groupName, dto.isAdmin === 1, menu, dto.remark ?? ''],
          );
          return { id: rows[0].id };
        }
        const [, affected] = (await tx.query(
          `UPDATE sys_group SET group_name = $2, is_admin = $3, permission_menu = $4, remark = coalesce($5, remark), updated_at = now() WHERE id = $1`,
          [dto.id, dto.groupName, dto.isAdmin === 1, menu, dto.remark ?? null],
        )) as [unknown, number];
        if (!affected) throw AppException.notFound('groupNotFound');
        await this.assertAnAdminRemains(tx);
        return { id: dto.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.conflict('groupNameTaken', { name: dto.groupName });
      throw err;
    }
  }

  async deleteGroup(id: number): Promise<void> {
    const users: { n: number }[] = await this.db.query(`SELECT count(*)::int AS n FROM sys_user WHERE group_id = $1`, [id]);
    if (users[0].n > 0) throw AppException.conflict('groupInUse', { count: users[0].n });
    const [, affected] = (await this.db.query(`DELETE FROM sys_group WHERE id = $1`, [id])) as [unknown, number];
    if (!affected) throw AppException.notFound('groupNotFound');
  }

  private async assertGroupExists(tx: EntityManager, groupId: number): Promise<void> {
    const rows: unknown[] = await tx.query(`SELECT 1 FROM sys_group WHERE id = $1`, [groupId]);
    if (rows.length === 0) throw AppException.field('groupId', 'groupNotFound');
  }

  /** Refuses a change that would leave no enabled administrator to manage the system. */
  private async assertAnAdminRemains(tx: EntityManager): Promise<void> {
    const rows: { n: number }[] = await tx.query(
      `SELECT count(*)::int AS n FROM sys_user u JOIN sys_group g ON g.id = u.group_id WHERE g.is_admin AND u.enabled`,
    );
    if (rows[0].n === 0) throw AppException.conflict('cannotDemoteLastAdmin');
  }
}
