import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  Button,
  DeviceType,
  POLE_MOUNTABLE_TYPES,
  type DeviceGroupOption,
  type MountedDevice,
  type PageResult,
  type PoleDetail,
  type PoleRow,
  DeviceFamily,
  type MqttCredentials,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { PoleAddOrEditDto, PoleMountDto, PoleMountableDto, PolePageDto } from './dto/pole.dto';
import { poleWhere } from './pole-filters';

const POLE_COLUMNS = `d.id, d.name, d.code, d.region_id AS "regionId", r.region_name AS "regionName", d.group_id AS "groupId",
  g.name AS "groupName", d.latitude, d.longitude, p.address, p.remark, d.created_at AS "createdAt",
  (SELECT count(*)::int FROM device m WHERE m.pole_id = d.id) AS "mountedCount"`;
const POLE_FROM = `device d JOIN lamp_pole p ON p.device_id = d.id LEFT JOIN region r ON r.id = d.region_id
  LEFT JOIN device_group g ON g.id = d.group_id`;

/** Mountable devices a picker lists at most. */
const MOUNTABLE_SHOWN = 50;

/** Lamp poles (spec: /lampPole/poleManage): the list, their management, and the devices mounted on them. */
@Injectable()
export class PolesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly credentials: DeviceCredentials,
  ) {}

  page(q: PolePageDto): Promise<PageResult<PoleRow>> {
    return pagedQuery<PoleRow>(this.db, {
      select: POLE_COLUMNS,
      from: POLE_FROM,
      countFrom: 'device d',
      where: poleWhere(q),
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: number): Promise<PoleDetail> {
    const [pole]: PoleRow[] = await this.db.query(`SELECT ${POLE_COLUMNS} FROM ${POLE_FROM} WHERE d.id = $1 AND d.type = $2`, [
      id,
      DeviceType.LampPole,
    ]);
    if (!pole) throw AppException.notFound();
    const devices: MountedDevice[] = await this.db.query(
      `SELECT id, type, code, name, pole_id AS "poleId" FROM device WHERE pole_id = $1 ORDER BY type, code`,
      [id],
    );
    return { ...pole, devices };
  }

  /** Adds a pole (no id) or changes one; on edit, an optional field left out keeps its value. */
  async save(caller: Caller, dto: PoleAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    assertButton(caller, dto.id === undefined ? Button.Add : Button.Edit);
    const latGiven = dto.latitude !== undefined;
    if (latGiven !== (dto.longitude !== undefined) || (dto.latitude === null) !== (dto.longitude === null)) {
      throw AppException.field(dto.latitude === undefined || dto.latitude === null ? 'latitude' : 'longitude', 'positionIncomplete');
    }
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null)
          await assertExists(tx, `SELECT 1 FROM region WHERE id = $1`, [dto.regionId], 'regionId', 'regionNotFound');
        if (dto.groupId !== undefined && dto.groupId !== null) await assertPoleGroup(tx, dto.groupId);
        if (dto.id === undefined) {
          const [{ id, generation }]: { id: number; generation: number }[] = await tx.query(
            `INSERT INTO device (type, code, name, region_id, group_id, latitude, longitude) VALUES ($1, $2, $3, $4, $5, $6, $7)
             RETURNING id, mqtt_generation AS generation`,
            [DeviceType.LampPole, dto.code, dto.name, dto.regionId ?? null, dto.groupId ?? null, dto.latitude ?? null, dto.longitude ?? null],
          );
          await tx.query(`INSERT INTO lamp_pole (device_id, address, remark) VALUES ($1, $2, $3)`, [id, dto.address ?? '', dto.remark ?? '']);
          // The new pole's MQTT login (its own controller), handed out once.
          return { id, mqtt: this.credentials.of(DeviceFamily.Pole, dto.code, generation) };
        }
        const [, affected] = (await tx.query(
          `UPDATE device SET code = $2, name = $3,
                  region_id = CASE WHEN $4::boolean THEN $5::int ELSE region_id END,
                  group_id = CASE WHEN $6::boolean THEN $7::int ELSE group_id END,
                  latitude = CASE WHEN $8::boolean THEN $9::float8 ELSE latitude END,
                  longitude = CASE WHEN $8::boolean THEN $10::float8 ELSE longitude END,
                  updated_at = now()
            WHERE id = $1 AND type = $11`,
          [
            dto.id,
            dto.code,
            dto.name,
            dto.regionId !== undefined,
            dto.regionId ?? null,
            dto.groupId !== undefined,
            dto.groupId ?? null,
            latGiven,
            dto.latitude ?? null,
            dto.longitude ?? null,
            DeviceType.LampPole,
          ],
        )) as [unknown, number];
        if (!affected) throw AppException.notFound();
        await tx.query(`UPDATE lamp_pole SET address = coalesce($2, address), remark = coalesce($3, remark) WHERE device_id = $1`, [
          dto.id,
          dto.address ?? null,
          dto.remark ?? null,
        ]);
        return { id: dto.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('code', 'poleCodeTaken', { code: dto.code });
      if (isForeignKeyViolation(err)) throw AppException.field('regionId', 'regionNotFound');
      throw err;
    }
  }

  /** Deletes a pole; the devices on it stay, mounted on nothing (device.pole_id ON DELETE SET NULL). */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM device WHERE id = $1 AND type = $2`, [id, DeviceType.LampPole])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }

  /** Mounts devices on a pole: each must exist, be of a mountable type, and be on no other pole. */
  async mount(dto: PoleMountDto): Promise<{ mounted: number }> {
    return this.db.transaction(async (tx) => {
      await assertPole(tx, dto.poleId);
      const ids = [...new Set(dto.deviceIds)];
      const devices: { id: number; code: string; poleId: number | null }[] = await tx.query(
        `SELECT id, code, pole_id AS "poleId" FROM device WHERE id = ANY($1::int[]) AND type = ANY($2::smallint[]) ORDER BY id FOR UPDATE`,
        [ids, POLE_MOUNTABLE_TYPES],
      );
      if (devices.length < ids.length) {
        const found = new Set(devices.map((d) => d.id));
        throw AppException.field('deviceIds', 'poleDevicesUnknown', { ids: ids.filter((id) => !found.has(id)).join(', ') });
      }
      const elsewhere = devices.filter((d) => d.poleId !== null && d.poleId !== dto.poleId);
      if (elsewhere.length > 0)
        throw AppException.field('deviceIds', 'poleDeviceMountedElsewhere', { codes: elsewhere.map((d) => d.code).join(', ') });
      await tx.query(`UPDATE device SET pole_id = $1, updated_at = now() WHERE id = ANY($2::int[])`, [dto.poleId, ids]);
      return { mounted: ids.length };
    });
  }

  /** Takes devices off a pole; ids not mounted on it are left alone. */
  async unmount(dto: PoleMountDto): Promise<{ unmounted: number }> {
    await assertPole(this.db.manager, dto.poleId);
    const [, affected] = (await this.db.query(`UPDATE device SET pole_id = NULL, updated_at = now() WHERE pole_id = $1 AND id = ANY($2::int[])`, [
      dto.poleId,
      dto.deviceIds,
    ])) as [unknown, number];
    return { unmounted: affected };
  }

  /** Devices on no pole that could be mounted, by part of their name or code. */
  mountable(q: PoleMountableDto): Promise<MountedDevice[]> {
    const types = q.type !== undefined ? [q.type] : POLE_MOUNTABLE_TYPES;
    return this.db.query(
      `SELECT id, type, code, name, pole_id AS "poleId" FROM device
        WHERE pole_id IS NULL AND type = ANY($1::smallint[]) AND ($2::text IS NULL OR concat_ws(chr(1), lower(name), lower(code)) LIKE $2)
        ORDER BY type, code LIMIT ${MOUNTABLE_SHOWN}`,
      [types, q.keyword ? likeContains(q.keyword) : null],
    );
  }

  groups(): Promise<DeviceGroupOption[]> {
    return this.db.query(`SELECT id, name FROM device_group WHERE type = $1 ORDER BY lower(name), id`, [DeviceType.LampPole]);
  }

  async addGroup(name: string): Promise<{ id: number }> {
    try {
      const [{ id }]: { id: number }[] = await this.db.query(`INSERT INTO device_group (type, name) VALUES ($1, $2) RETURNING id`, [
        DeviceType.LampPole,
        name,
      ]);
      return { id };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('name', 'deviceGroupNameTaken', { name });
      throw err;
    }
  }
}

function assertButton(caller: Caller, button: Button): void {
  if (!caller.buttons.includes(button)) throw AppException.forbidden();
}

async function assertExists(
  tx: EntityManager,
  sql: string,
  params: unknown[],
  field: string,
  key: 'regionNotFound' | 'importGroupNotFound',
): Promise<void> {
  const rows: unknown[] = await tx.query(sql, params);
  if (rows.length === 0) throw AppException.field(field, key);
}

async function assertPoleGroup(tx: EntityManager, groupId: number): Promise<void> {
  const [group]: { type: number }[] = await tx.query(`SELECT type FROM device_group WHERE id = $1`, [groupId]);
  if (!group) throw AppException.field('groupId', 'importGroupNotFound');
  if (group.type !== (DeviceType.LampPole as number)) throw AppException.field('groupId', 'importGroupWrongType');
}

async function assertPole(tx: EntityManager, poleId: number): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM device WHERE id = $1 AND type = $2 FOR KEY SHARE`, [poleId, DeviceType.LampPole]);
  if (rows.length === 0) throw AppException.notFound();
}
