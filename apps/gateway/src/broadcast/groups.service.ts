import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Button, type BroadcastGroupDetail, type BroadcastGroupOption, type BroadcastGroupRow, type PageResult } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { REGION_AND_BELOW, assertRegionExists, devicesByIds } from '../common/device-selection';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { BroadcastGroupAddOrEditDto, BroadcastGroupPageDto } from './dto/group.dto';
import { terminalsWhere } from './terminals.service';

const MEMBER_COUNT = `(SELECT count(*)::int FROM broadcast_group_member m WHERE m.group_id = g.id)`;
const GROUP_COLUMNS = `g.id, g.name AS "groupName", g.region_id AS "regionId", r.region_name AS "regionName", g.remark,
  ${MEMBER_COUNT} AS "memberCount", g.created_at AS "createdAt", g.updated_at AS "updatedAt"`;
const GROUP_FROM = `broadcast_group g LEFT JOIN region r ON r.id = g.region_id`;

/**
 * Broadcast groups: named sets of terminals that tasks address together (a terminal may be in several). Saving a
 * group writes its record and, when given, its whole membership in one transaction; anything refused changes nothing.
 */
@Injectable()
export class BroadcastGroupsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  page(q: BroadcastGroupPageDto): Promise<PageResult<BroadcastGroupRow>> {
    const where = new Where()
      .addIf(q.groupName, `lower(g.name) LIKE ?`, q.groupName && likeContains(q.groupName))
      .addIf(q.regionId, `g.region_id IN (${REGION_AND_BELOW})`);
    return pagedQuery<BroadcastGroupRow>(this.db, {
      select: GROUP_COLUMNS,
      from: GROUP_FROM,
      countFrom: 'broadcast_group g',
      where,
      orderBy: 'lower(g.name), g.id',
      outerOrderBy: 'lower(page."groupName"), page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /** The group and its terminals, in name order. */
  async detail(id: number): Promise<BroadcastGroupDetail> {
    const [group]: BroadcastGroupRow[] = await this.db.query(`SELECT ${GROUP_COLUMNS} FROM ${GROUP_FROM} WHERE g.id = $1`, [id]);
    if (!group) throw AppException.notFound();
    const members = await terminalsWhere(
      this.db,
      `d.id IN (SELECT device_id FROM broadcast_group_member WHERE group_id = $1)`,
      [id],
      'lower(d.name), d.id',
    );
    return { ...group, members };
  }

  /** Every group for a picker, in name order; an empty one is marked, since it cannot be chosen. */
  options(): Promise<BroadcastGroupOption[]> {
    return this.db.query(
      `SELECT g.id, g.name AS "groupName", ${MEMBER_COUNT} AS "memberCount", ${MEMBER_COUNT} = 0 AS empty
         FROM broadcast_group g ORDER BY lower(g.name), g.id`,
    );
  }

  /**
   * Adds a group (Add button) or changes one (Edit). On edit, an optional field left out keeps its value; null regionId
   * takes the group out of its region; terminalIds, when given, is the whole membership. Every member must be a
   * terminal, locked against deletion until the membership is written.
   */
  async save(caller: Caller, dto: BroadcastGroupAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null) await assertRegionExists(tx, dto.regionId);
        const members =
          dto.terminalIds &&
          (await devicesByIds(tx, 'broadcast_terminal', dto.terminalIds, (shown) =>
            AppException.field('terminalIds', 'unknownTerminals', { ids: shown }),
          ));
        let id = dto.id;
        if (id === undefined) {
          [{ id }] = (await tx.query(`INSERT INTO broadcast_group (name, region_id, remark) VALUES ($1, $2, $3) RETURNING id`, [
            dto.groupName,
            dto.regionId ?? null,
            dto.remark ?? '',
          ])) as { id: number }[];
        } else {
          const [, affected] = (await tx.query(
            `UPDATE broadcast_group SET name = $2, region_id = CASE WHEN $3::boolean THEN $4::int ELSE region_id END,
                    remark = coalesce($5, remark), updated_at = now()
              WHERE id = $1`,
            [id, dto.groupName, dto.regionId !== undefined, dto.regionId ?? null, dto.remark ?? null],
          )) as [unknown, number];
          if (!affected) throw AppException.notFound();
        }
        if (members) {
          await tx.query(`DELETE FROM broadcast_group_member WHERE group_id = $1 AND device_id <> ALL($2::int[])`, [id, members]);
          await tx.query(`INSERT INTO broadcast_group_member (group_id, device_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`, [
            id,
            members,
          ]);
        }
        return { id: id as number };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('groupName', 'broadcastGroupNameTaken', { name: dto.groupName });
      // The region went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('regionId', 'regionNotFound');
      throw err;
    }
  }

  /** Deletes the group; its terminals stay as they are. */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM broadcast_group WHERE id = $1`, [id])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }
}
