import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  Button,
  DeviceFamily,
  DeviceType,
  LAMP_FAMILY,
  type LampControlResult,
  type LampRow,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { DeviceControlService, type DispatchRecorded, type SelectionWording } from '../dispatch/device-control.service';
import { REGION_AND_BELOW, assertRegionExists, devicesByIds } from '../common/device-selection';
import { InjectDb } from '../infra/database';
import type { LampBatchUpdateGatewayDto, LampBindGatewayDto, LampEditMqttDto, LampIdsDto } from './dto/equipment.dto';
import type { LampAddOrEditDto, LampControlDto, LampPageDto } from './dto/lamp.dto';

const LAMP_COLUMNS = `d.id, d.name AS "lampName", d.code AS "clientId", d.region_id AS "regionId", r.region_name AS "regionName",
  l.gateway_id AS "gatewayId", l.lamp_control_id AS "lampControlId", l.addr, l.mac, l.bri, l.switch_state AS "switchState",
  l.status, l.network_status AS "networkStatus", l.telemetry, l.faults, l.hardware_version AS "hardwareVersion",
  l.software_version AS "softwareVersion", l.total_illumination_hours AS "totalIlluminationHours", l.reported_at AS "reportedAt",
  l.loop_id AS "loopId", lp.name AS "loopName", l.level, l.color, d.group_id AS "groupId", g.name AS "groupName", d.latitude, d.longitude,
  l.strategy_id AS "strategyId", st.name AS "strategyName", l.mode, l.mode_data AS "modeData", l.job_list AS "jobList"`;

/** The lamp row's tables: every optional part LEFT JOINed. */
const LAMP_FROM = `device d JOIN lamp l ON l.device_id = d.id LEFT JOIN region r ON r.id = d.region_id
  LEFT JOIN lamp_loop lp ON lp.id = l.loop_id LEFT JOIN device_group g ON g.id = d.group_id LEFT JOIN strategy st ON st.id = l.strategy_id`;

/** Single lamps (spec sections 3 and 6): the list, its management, and control through the command ledger. */
@Injectable()
export class LightingService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly devices: DeviceControlService,
    private readonly credentials: DeviceCredentials,
  ) {}

  page(q: LampPageDto): Promise<PageResult<LampRow>> {
    // Lamps are the devices of their type: a total without a filter on the lamp row itself counts devices alone
    // (an index-only scan of a table that devices' reports never rewrite) instead of joining every lamp row.
    const where = new Where()
      .add(`d.type = ?`, LAMP_FAMILY.deviceType)
      .addIf(q.lampName, `lower(d.name) LIKE ?`, q.lampName && likeContains(q.lampName))
      .addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.status, `l.status = ?`)
      .addIf(q.networkStatus, `l.network_status = ?`)
      .addIf(q.gatewayId, `l.gateway_id = ?`)
      .addIf(q.loopId, `l.loop_id = ?`)
      .addIf(q.groupId, `d.group_id = ?`);
    return pagedQuery<LampRow>(this.db, {
      select: LAMP_COLUMNS,
      from: LAMP_FROM,
      countFrom: [q.status, q.networkStatus, q.gatewayId, q.loopId].some((v) => v !== undefined && v !== null && v !== '')
        ? 'device d JOIN lamp l ON l.device_id = d.id'
        : 'device d',
      where,
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /**
   * Adds a lamp (its device record, type single lamp, with the clientId as its code, and its lamp row) or changes one.
   * On edit, an optional field left out keeps its value; regionId or groupId null takes the lamp out of its region or
   * group. The clientId is the lamp's MQTT identity: plain Edit cannot change it (lampEditMqtt can). A gateway given
   * anew must be a recorded gateway ('' for none); a lamp that changes gateway leaves its loop, which was the old one's.
   */
  async save(caller: Caller, dto: LampAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    assertButton(caller, dto.id === undefined ? Button.Add : Button.Edit);
    assertPosition(dto.latitude, dto.longitude);
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null) await assertRegionExists(tx, dto.regionId);
        if (dto.groupId !== undefined && dto.groupId !== null) await assertGroupOfType(tx, dto.groupId, DeviceType.SingleLamp, 'groupId');
        if (dto.id === undefined) {
          if (dto.gatewayId) await gatewayByCode(tx, dto.gatewayId, 'gatewayId');
          const [{ id, generation }]: { id: number; generation: number }[] = await tx.query(
            `INSERT INTO device (type, code, name, region_id, group_id, latitude, longitude) VALUES ($1, $2, $3, $4, $5, $6, $7)
             RETURNING id, mqtt_generation AS generation`,
            [
              DeviceType.SingleLamp,
              dto.clientId,
              dto.lampName,
              dto.regionId ?? null,
              dto.groupId ?? null,
              dto.latitude ?? null,
              dto.longitude ?? null,
            ],
          );
          await tx.query(`INSERT INTO lamp (device_id, gateway_id, lamp_control_id, addr, mac, color) VALUES ($1, $2, $3, $4, $5, $6)`, [
            id,
            dto.gatewayId ?? '',
            dto.lampControlId ?? '',
            dto.addr ?? '',
            dto.mac ?? '',
            (dto.color ?? '').toLowerCase(),
          ]);
          // The new lamp's MQTT login, handed out once (docs/security.md).
          return { id, mqtt: this.credentials.of(DeviceFamily.Lamp, dto.clientId, generation) };
        }
        const [current]: { code: string; gatewayId: string }[] = await tx.query(
          `SELECT d.code, l.gateway_id AS "gatewayId" FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.id = $1 AND d.type = $2 FOR UPDATE`,
          [dto.id, DeviceType.SingleLamp],
        );
        if (!current) throw AppException.notFound();
        if (current.code !== dto.clientId) throw AppException.field('clientId', 'clientIdNeedsEditMqtt');
        // The current gateway may be one the lamp reported and nobody recorded: only a new one is checked.
        const gatewayChanges = dto.gatewayId !== undefined && dto.gatewayId !== current.gatewayId;
        if (gatewayChanges && dto.gatewayId) await gatewayByCode(tx, dto.gatewayId, 'gatewayId');
        await tx.query(
          `UPDATE device SET name = $2,
                  region_id = CASE WHEN $3::boolean THEN $4::int ELSE region_id END,
                  group_id = CASE WHEN $5::boolean THEN $6::int ELSE group_id END,
                  latitude = CASE WHEN $7::boolean THEN $8::float8 ELSE latitude END,
                  longitude = CASE WHEN $7::boolean THEN $9::float8 ELSE longitude END,
                  updated_at = now()
            WHERE id = $1`,
          [
            dto.id,
            dto.lampName,
            dto.regionId !== undefined,
            dto.regionId ?? null,
            dto.groupId !== undefined,
            dto.groupId ?? null,
            dto.latitude !== undefined,
            dto.latitude ?? null,
            dto.longitude ?? null,
          ],
        );
        await tx.query(
          `UPDATE lamp SET gateway_id = coalesce($2, gateway_id), lamp_control_id = coalesce($3, lamp_control_id),
                  addr = coalesce($4, addr), mac = coalesce($5, mac), color = coalesce($6, color),
                  loop_id = CASE WHEN $7::boolean THEN NULL ELSE loop_id END
            WHERE device_id = $1`,
          [
            dto.id,
            dto.gatewayId ?? null,
            dto.lampControlId ?? null,
            dto.addr ?? null,
            dto.mac ?? null,
            dto.color?.toLowerCase() ?? null,
            gatewayChanges,
          ],
        );
        return { id: dto.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('clientId', 'clientIdTaken', { clientId: dto.clientId });
      // The region or group was deleted between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('regionId', 'regionNotFound');
      throw err;
    }
  }

  /** Every field of one lamp (the View drawer). */
  async detail(id: number): Promise<LampRow> {
    const [row]: LampRow[] = await this.db.query(`SELECT ${LAMP_COLUMNS} FROM ${LAMP_FROM} WHERE d.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Edit MQTT: the lamp's MQTT identity (its clientId, the device code) and new credentials. The old password stops
   * working once the broker's accounts are written again, and the lamp's connection is dropped.
   */
  async editMqtt(dto: LampEditMqttDto): Promise<{ mqtt?: MqttCredentials }> {
    try {
      return await this.db.transaction(async (tx) => {
        const [, affected] = (await tx.query(`UPDATE device SET code = $2, updated_at = now() WHERE id = $1 AND type = $3`, [
          dto.id,
          dto.clientId,
          DeviceType.SingleLamp,
        ])) as [unknown, number];
        if (!affected) throw AppException.notFound();
        return { mqtt: await this.credentials.rotate(tx, dto.id) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('clientId', 'clientIdTaken', { clientId: dto.clientId });
      throw err;
    }
  }

  /** Binds one lamp to a gateway, its controller id and a loop of that gateway; all three are required. */
  async bindGateway(dto: LampBindGatewayDto): Promise<void> {
    await this.db.transaction(async (tx) => {
      const gateway = await gatewayByCode(tx, dto.gatewayId, 'gatewayId');
      const [loop]: { gateway_id: number }[] = await tx.query(`SELECT gateway_id FROM lamp_loop WHERE id = $1 FOR KEY SHARE`, [dto.loopId]);
      if (!loop) throw AppException.field('loopId', 'loopNotFound');
      if (loop.gateway_id !== gateway.id) throw AppException.field('loopId', 'loopNotOfGateway');
      const [, affected] = (await tx.query(
        `UPDATE lamp l SET gateway_id = $2, lamp_control_id = $3, loop_id = $4
           FROM device d WHERE d.id = l.device_id AND l.device_id = $1 AND d.type = $5`,
        [dto.id, dto.gatewayId, dto.lampControlId, dto.loopId, DeviceType.SingleLamp],
      )) as [unknown, number];
      if (!affected) throw AppException.notFound();
    });
  }

  /** Moves the selected lamps to another gateway; they leave their loop, which belonged to the old one. */
  async batchUpdateGateway(dto: LampBatchUpdateGatewayDto): Promise<{ updated: number }> {
    return this.db.transaction(async (tx) => {
      await gatewayByCode(tx, dto.gatewayId, 'gatewayId');
      const ids = await lampsByIds(tx, dto.ids);
      await tx.query(
        `UPDATE lamp SET gateway_id = $2::varchar, loop_id = CASE WHEN gateway_id = $2::varchar THEN loop_id END WHERE device_id = ANY($1::int[])`,
        [ids, dto.gatewayId],
      );
      return { updated: ids.length };
    });
  }

  /** Deletes the selected lamps; every id must be a lamp, or nothing is deleted. */
  async batchRemove(dto: LampIdsDto): Promise<{ deleted: number }> {
    return this.db.transaction(async (tx) => {
      const ids = await lampsByIds(tx, dto.ids);
      await tx.query(`DELETE FROM device WHERE id = ANY($1::int[])`, [ids]);
      return { deleted: ids.length };
    });
  }

  /** Deletes the lamp's device record; its lamp row and dispatch rows go with it. */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM device WHERE id = $1 AND type = $2`, [id, DeviceType.SingleLamp])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }

  /**
   * Switches or dims the selected lamps, or every lamp of a region and its sub-regions: writes the dispatch, its
   * items and its outbox row in one transaction. Any problem with the selection refuses the whole request, so a
   * refused request dispatches nothing. `recorded` writes what the dispatch is for in its transaction (an alarm
   * incident's response), and may refuse it.
   */
  async control(caller: Caller, dto: LampControlDto, recorded?: DispatchRecorded): Promise<LampControlResult> {
    // A JSON null passes the optional level's validation: for dim it is as missing as no level at all.
    if (dto.action === 'dim' && (dto.level === undefined || dto.level === null)) throw AppException.field('level', 'pleaseSelect');
    return this.devices.dispatch(caller, LAMP_FAMILY, dto, dto.action, LAMP_SELECTION, async (tx, deviceIds) => {
      if (dto.action !== 'dim') return { params: {}, recorded };
      // `level` is what was last commanded; `bri` stays what the lamp reports.
      await tx.query(`UPDATE lamp SET level = $2 WHERE device_id = ANY($1::int[])`, [deviceIds, dto.level]);
      return { params: { level: dto.level }, recorded };
    });
  }
}

function assertButton(caller: Caller, button: Button): void {
  if (!caller.buttons.includes(button)) throw AppException.forbidden();
}

/** Latitude and longitude come together (or are both left out, or both null). */
export function assertPosition(latitude: number | null | undefined, longitude: number | null | undefined): void {
  if ((latitude === undefined) !== (longitude === undefined) || (latitude === null) !== (longitude === null)) {
    throw AppException.field('latitude', 'positionIncomplete');
  }
}

/** A device group of the given device type, or the field error 'The selected group does not exist'. */
export async function assertGroupOfType(tx: EntityManager, groupId: number, type: DeviceType, field: string): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM device_group WHERE id = $1 AND type = $2 FOR KEY SHARE`, [groupId, type]);
  if (rows.length === 0) throw AppException.field(field, 'groupNotFound');
}

/** The gateway with this code, locked against deletion until the caller commits. */
export async function gatewayByCode(tx: EntityManager, code: string, field: string): Promise<{ id: number }> {
  const [gateway]: { id: number }[] = await tx.query(`SELECT id FROM lamp_gateway WHERE code = $1 FOR KEY SHARE`, [code]);
  if (!gateway) throw AppException.field(field, 'gatewayNotFound');
  return gateway;
}

/** How lamp selections are refused. */
export const LAMP_SELECTION: SelectionWording = {
  empty: 'lampSelectionEmpty',
  ambiguous: 'lampSelectionAmbiguous',
  unknown: (shown) => AppException.field('ids', 'unknownLamps', { ids: shown }),
  emptyRegion: () => AppException.field('regionId', 'regionHasNoLamps'),
  gone: (byIds) => AppException.field(byIds ? 'ids' : 'regionId', 'lampSelectionEmpty'),
};

/** The given lamps, locked against deletion until the caller's transaction ends; every id must be a lamp. */
export function lampsByIds(tx: EntityManager, ids: readonly number[]): Promise<number[]> {
  return devicesByIds(tx, LAMP_FAMILY.table, ids, LAMP_SELECTION.unknown);
}
