import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Button, type PageResult, type RadarGroupDetail, type RadarGroupRow } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { devicesByIds } from '../common/device-selection';
import { isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { RadarGroupDto, RadarGroupPageDto } from './dto/radar.dto';

const GROUP_COLUMNS = `g.id, g.name, g.remark,
  ARRAY(SELECT m.device_id FROM radar_group_radar m WHERE m.group_id = g.id ORDER BY m.device_id) AS "radarIds",
  ARRAY(SELECT m.device_id FROM radar_group_lamp m WHERE m.group_id = g.id ORDER BY m.device_id) AS "lampIds",
  (SELECT count(*)::int FROM radar_group_radar m WHERE m.group_id = g.id) AS "radarCount",
  (SELECT count(*)::int FROM radar_group_lamp m WHERE m.group_id = g.id) AS "lampCount",
  s.id AS "strategyId", s.name AS "strategyName"`;
const GROUP_FROM = `radar_group g LEFT JOIN radar_strategy s ON s.group_id = g.id`;

/** Writes one membership table of a group as the whole list given. */
async function writeMembers(tx: EntityManager, table: 'radar_group_radar' | 'radar_group_lamp', groupId: number, ids: readonly number[]) {
  await tx.query(`DELETE FROM ${table} WHERE group_id = $1 AND device_id <> ALL($2::int[])`, [groupId, ids]);
  await tx.query(`INSERT INTO ${table} (group_id, device_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`, [groupId, ids]);
}

/**
 * Radar groups (/radarManage/radarGroupManagement, created and edited on the hidden radarCreateGroup and
 * radarEditGroup pages): named sets of radars and of the lamps their strategy lights. A radar or a lamp may be in
 * several groups. Saving writes the group and both lists in one transaction; anything refused changes nothing.
 */
@Injectable()
export class RadarGroupsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  page(q: RadarGroupPageDto): Promise<PageResult<RadarGroupRow>> {
    return pagedQuery<RadarGroupRow>(this.db, {
      select: GROUP_COLUMNS,
      from: GROUP_FROM,
      countFrom: 'radar_group g',
      where: new Where().addIf(q.name, `lower(g.name) LIKE ?`, q.name && likeContains(q.name)),
      orderBy: 'lower(g.name), g.id',
      outerOrderBy: 'lower(page.name), page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /** The group with its radars and lamps named, in code order. */
  async detail(id: number): Promise<RadarGroupDetail> {
    const members = (
      table: string,
    ) => `(SELECT coalesce(json_agg(json_build_object('id', d.id, 'code', d.code, 'name', d.name) ORDER BY d.code), '[]')
       FROM ${table} m JOIN device d ON d.id = m.device_id WHERE m.group_id = g.id)`;
    const [group]: RadarGroupDetail[] = await this.db.query(
      `SELECT ${GROUP_COLUMNS}, ${members('radar_group_radar')} AS radars, ${members('radar_group_lamp')} AS lamps FROM ${GROUP_FROM} WHERE g.id = $1`,
      [id],
    );
    if (!group) throw AppException.notFound('radarGroupNotFound');
    return group;
  }

  /** Every group for the strategy form's picker, in name order. */
  options(): Promise<RadarGroupRow[]> {
    return this.db.query(`SELECT ${GROUP_COLUMNS} FROM ${GROUP_FROM} ORDER BY lower(g.name), g.id`);
  }

  /** Adds a group (Add button) or changes one (Edit); every radar must be a radar and every lamp a lamp. */
  async save(caller: Caller, dto: RadarGroupDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      return await this.db.transaction(async (tx) => {
        const radars = await devicesByIds(tx, 'radar_terminal', dto.radarIds, (shown) =>
          AppException.field('radarIds', 'unknownRadars', { ids: shown }),
        );
        const lamps = await devicesByIds(tx, 'lamp', dto.lampIds, (shown) => AppException.field('lampIds', 'unknownLamps', { ids: shown }));
        let id = dto.id;
        if (id === undefined) {
          [{ id }] = (await tx.query(`INSERT INTO radar_group (name, remark) VALUES ($1, $2) RETURNING id`, [dto.name, dto.remark ?? ''])) as {
            id: number;
          }[];
        } else {
          const [, affected] = (await tx.query(`UPDATE radar_group SET name = $2, remark = coalesce($3, remark) WHERE id = $1`, [
            id,
            dto.name,
            dto.remark ?? null,
          ])) as [unknown, number];
          if (!affected) throw AppException.notFound('radarGroupNotFound');
        }
        await writeMembers(tx, 'radar_group_radar', id as number, radars);
        await writeMembers(tx, 'radar_group_lamp', id as number, lamps);
        return { id: id as number };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('name', 'radarGroupNameTaken', { name: dto.name });
      throw err;
    }
  }

  /** Deletes a group no strategy is bound to; its radars and lamps stay as they are. */
  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [group]: { strategy: string | null }[] = await tx.query(
        `SELECT (SELECT s.name FROM radar_strategy s WHERE s.group_id = g.id) AS strategy FROM radar_group g WHERE g.id = $1 FOR UPDATE`,
        [id],
      );
      if (!group) throw AppException.notFound('radarGroupNotFound');
      if (group.strategy !== null) throw AppException.conflict('radarGroupInUse', { name: group.strategy });
      await tx.query(`DELETE FROM radar_group WHERE id = $1`, [id]);
    });
  }
}
