import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { alarmGroupProblems, type AlarmUserGroupRow, type PageResult } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { isUniqueViolation, pgConstraint } from '../common/pg-errors';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { AlarmUserGroupAddOrEditDto, AlarmUserGroupPageDto } from './dto/intercom.dto';

/** An error names at most this many unknown users. */
const UNKNOWN_IDS_SHOWN = 10;

/** The columns of an AlarmUserGroupRow over `alarm_user_group g LEFT JOIN region r`, its agents by name. */
const GROUP_COLUMNS = `g.id, g.name, g.remark, g.region_id AS "regionId", r.region_name AS "regionName",
  COALESCE((SELECT json_agg(json_build_object('userId', a.user_id, 'username', u.username, 'sipAccount', a.sip_account,
      'protocol', a.protocol, 'accountStatus', a.account_status, 'mode', a.mode, 'modeSince', a.mode_since) ORDER BY lower(u.username))
    FROM alarm_agent a JOIN sys_user u ON u.id = a.user_id WHERE a.group_id = g.id), '[]') AS agents`;
const GROUP_FROM = `alarm_user_group g LEFT JOIN region r ON r.id = g.region_id`;

/**
 * User groups of the alarm intercom (userGroupManagement): operators (console users) as agents who take the calls of
 * the columns of the group's region and below. An operator is an agent of one group at most; a SIP account is one
 * agent's. Saving a group writes its whole list of agents: an agent kept keeps its mode, one removed stops taking calls.
 */
@Injectable()
export class AlarmUserGroupsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  page(q: AlarmUserGroupPageDto): Promise<PageResult<AlarmUserGroupRow>> {
    const where = new Where().addIf(q.name, `lower(g.name) LIKE ?`, q.name && likeContains(q.name));
    return pagedQuery<AlarmUserGroupRow>(this.db, {
      select: GROUP_COLUMNS,
      from: GROUP_FROM,
      countFrom: 'alarm_user_group g',
      where,
      orderBy: 'lower(g.name), g.id',
      outerOrderBy: 'lower(page.name), page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /** The console users who may be made agents: enabled, by name. */
  candidates(): Promise<{ id: number; username: string; groupId: number | null }[]> {
    return this.db.query(
      `SELECT u.id, u.username, a.group_id AS "groupId" FROM sys_user u LEFT JOIN alarm_agent a ON a.user_id = u.id
        WHERE u.enabled ORDER BY lower(u.username) LIMIT 1000`,
    );
  }

  async save(dto: AlarmUserGroupAddOrEditDto): Promise<{ id: number }> {
    const problems = alarmGroupProblems(dto);
    if (problems.length > 0)
      throw AppException.badRequest(
        'validationField',
        {},
        problems.map((p) => ({ field: p.field, key: p.key as MessageKey, params: p.params })),
      );
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId != null) {
          const [region] = await tx.query(`SELECT 1 FROM region WHERE id = $1`, [dto.regionId]);
          if (!region) throw AppException.field('regionId', 'notFound');
        }
        const id = dto.id === undefined ? await this.insert(tx, dto) : await this.update(tx, dto.id, dto);
        await this.writeAgents(tx, id, dto);
        return { id };
      });
    } catch (err) {
      if (isUniqueViolation(err) && pgConstraint(err) === 'alarm_user_group_name_uq')
        throw AppException.taken('name', 'alarmGroupNameTaken', { name: dto.name });
      if (isUniqueViolation(err) && pgConstraint(err) === 'alarm_agent_sip_uq') {
        const e = err as { detail?: string; driverError?: { detail?: string } };
        const sip = /\(sip_account\)=\(([^)]*)\)/.exec(e.detail ?? e.driverError?.detail ?? '')?.[1] ?? '';
        throw AppException.taken('agents', 'alarmAgentSipTaken', { sip });
      }
      throw err;
    }
  }

  private async insert(tx: EntityManager, dto: AlarmUserGroupAddOrEditDto): Promise<number> {
    const [{ id }]: { id: number }[] = await tx.query(`INSERT INTO alarm_user_group (name, remark, region_id) VALUES ($1, $2, $3) RETURNING id`, [
      dto.name,
      dto.remark ?? '',
      dto.regionId ?? null,
    ]);
    return id;
  }

  private async update(tx: EntityManager, id: number, dto: AlarmUserGroupAddOrEditDto): Promise<number> {
    const [rows] = (await tx.query(
      `UPDATE alarm_user_group SET name = $2, remark = COALESCE($3, remark), region_id = CASE WHEN $5 THEN $4::int ELSE region_id END,
              updated_at = now() WHERE id = $1 RETURNING id`,
      [id, dto.name, dto.remark ?? null, dto.regionId ?? null, dto.regionId !== undefined],
    )) as [unknown[], number];
    if (rows.length === 0) throw AppException.notFound();
    return id;
  }

  /** The group's agents become exactly the list: the users must exist, be enabled and be in no other group. */
  private async writeAgents(tx: EntityManager, groupId: number, dto: AlarmUserGroupAddOrEditDto): Promise<void> {
    const ids = dto.agents.map((a) => a.userId);
    const users: { id: number; username: string; otherGroup: string | null }[] = await tx.query(
      `SELECT u.id, u.username, g.name AS "otherGroup" FROM sys_user u
         LEFT JOIN alarm_agent a ON a.user_id = u.id AND a.group_id <> $2 LEFT JOIN alarm_user_group g ON g.id = a.group_id
        WHERE u.id = ANY($1::int[]) AND u.enabled`,
      [ids, groupId],
    );
    const known = new Map(users.map((u) => [u.id, u]));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) throw AppException.field('agents', 'alarmAgentUnknown', { ids: unknown.slice(0, UNKNOWN_IDS_SHOWN).join(', ') });
    const elsewhere = users.find((u) => u.otherGroup !== null);
    if (elsewhere) throw AppException.field('agents', 'alarmAgentInOtherGroup', { name: elsewhere.username, group: elsewhere.otherGroup });
    await tx.query(`DELETE FROM alarm_agent WHERE group_id = $1 AND NOT (user_id = ANY($2::int[]))`, [groupId, ids]);
    for (const agent of dto.agents) {
      await tx.query(
        `INSERT INTO alarm_agent (user_id, group_id, sip_account, protocol, account_status) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (user_id) DO UPDATE SET sip_account = EXCLUDED.sip_account, protocol = EXCLUDED.protocol,
           account_status = EXCLUDED.account_status`,
        [agent.userId, groupId, agent.sipAccount ?? '', agent.protocol, agent.accountStatus],
      );
    }
  }

  /** Deletes a group; its agents stop taking calls, and the calls and incidents it had keep their record. */
  async remove(id: number): Promise<void> {
    const [rows] = (await this.db.query(`DELETE FROM alarm_user_group WHERE id = $1 RETURNING id`, [id])) as [unknown[], number];
    if (rows.length === 0) throw AppException.notFound();
  }
}
