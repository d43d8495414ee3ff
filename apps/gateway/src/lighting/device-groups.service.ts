import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { Button, type DeviceGroupMoveResult, type DeviceGroupRow, type LightingGroupType } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { InjectDb } from '../infra/database';
import type { DeviceGroupAddOrEditDto, GroupMoveDto } from './dto/equipment.dto';
import { assertGroupOfType } from './lighting.service';

/**
 * Device groups of the lighting device types (single lamps, strip lights). A device belongs to at most one group of
 * its type; a group with members cannot be deleted, and moving devices needs a target group.
 */
@Injectable()
export class DeviceGroupsService {
  constructor(@InjectDb() private readonly db: DataSource) {}

  list(type: LightingGroupType): Promise<DeviceGroupRow[]> {
    return this.db.query(
      `SELECT g.id, g.type, g.name, (SELECT count(*)::int FROM device d WHERE d.group_id = g.id) AS "deviceCount"
         FROM device_group g WHERE g.type = $1 ORDER BY lower(g.name), g.id`,
      [type],
    );
  }

  async save(caller: Caller, dto: DeviceGroupAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      if (dto.id === undefined) {
        const [{ id }]: { id: number }[] = await this.db.query(`INSERT INTO device_group (type, name) VALUES ($1, $2) RETURNING id`, [
          dto.type,
          dto.name,
        ]);
        return { id };
      }
      const [, affected] = (await this.db.query(`UPDATE device_group SET name = $2, updated_at = now() WHERE id = $1 AND type = $3`, [
        dto.id,
        dto.name,
        dto.type,
      ])) as [unknown, number];
      if (!affected) throw AppException.notFound();
      return { id: dto.id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('name', 'deviceGroupNameTaken', { name: dto.name });
      throw err;
    }
  }

  /** Refused while the group has members: they would be left without a group unnoticed. */
  async remove(id: number, type: LightingGroupType): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [group]: { id: number }[] = await tx.query(`SELECT id FROM device_group WHERE id = $1 AND type = $2 FOR UPDATE`, [id, type]);
      if (!group) throw AppException.notFound();
      const [{ n }]: { n: number }[] = await tx.query(`SELECT count(*)::int AS n FROM device WHERE group_id = $1`, [id]);
      if (n > 0) throw AppException.badRequest('deviceGroupHasDevices', { count: n });
      await tx.query(`DELETE FROM device_group WHERE id = $1`, [id]);
    });
  }

  /**
   * Moves the selected devices, or every device of a source group, into the target group. The target is required
   * ('Please select a group'); an empty source group cannot be chosen; every selected id must be a device of the type.
   */
  async move(dto: GroupMoveDto): Promise<DeviceGroupMoveResult> {
    const byIds = dto.ids !== undefined && dto.ids !== null;
    const bySource = dto.fromGroupId !== undefined && dto.fromGroupId !== null;
    if (byIds === bySource) throw AppException.field('ids', 'selectListItem');
    return this.db.transaction(async (tx) => {
      await assertGroupOfType(tx, dto.groupId, dto.type, 'groupId');
      let ids: number[];
      if (bySource) {
        await assertGroupOfType(tx, dto.fromGroupId as number, dto.type, 'fromGroupId');
        const rows: { id: number }[] = await tx.query(`SELECT id FROM device WHERE group_id = $1 AND type = $2 ORDER BY id FOR UPDATE`, [
          dto.fromGroupId,
          dto.type,
        ]);
        if (rows.length === 0) throw AppException.field('fromGroupId', 'emptyGroupNotSelectable');
        ids = rows.map((r) => r.id);
      } else {
        const wanted = [...new Set(dto.ids)];
        const rows: { id: number }[] = await tx.query(`SELECT id FROM device WHERE id = ANY($1::int[]) AND type = $2 ORDER BY id FOR UPDATE`, [
          wanted,
          dto.type,
        ]);
        if (rows.length < wanted.length) {
          const found = new Set(rows.map((r) => r.id));
          throw AppException.field('ids', 'unknownLamps', {
            ids: wanted
              .filter((id) => !found.has(id))
              .slice(0, 10)
              .join(', '),
          });
        }
        ids = rows.map((r) => r.id);
      }
      await tx.query(`UPDATE device SET group_id = $2, updated_at = now() WHERE id = ANY($1::int[])`, [ids, dto.groupId]);
      return { moved: ids.length };
    });
  }
}
