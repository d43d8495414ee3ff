import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  Button,
  DeviceFamily,
  DeviceType,
  STRIP_FAMILY,
  stripStatusLabels,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type StripRow,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';

import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { DeviceControlService, type SelectionWording } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import { REGION_AND_BELOW, assertRegionExists } from '../common/device-selection';
import type { StripAddOrEditDto, StripEffectDto, StripPageDto } from './dto/strip.dto';
import { checkStripEffect } from './strip-effect';

const STRIP_COLUMNS = `d.id, d.name AS "lampName", d.code AS "clientId", d.region_id AS "regionId", r.region_name AS "regionName",
  d.group_id AS "groupId", g.name AS "groupName", s.gateway_id AS "gatewayId", s.addr, s.mac, s.bri,
  coalesce(s.zones->'L'->>'color', s.zones->'R'->>'color', '') AS color, s.zones, s.status, s.network_status AS "networkStatus",
  s.telemetry, s.faults, s.hardware_version AS "hardwareVersion", s.software_version AS "softwareVersion", s.reported_at AS "reportedAt",
  s.strategy_id AS "strategyId", st.name AS "strategyName"`;

/** Strip lights (spec sections 3 and 6): the list, its management, and light effects through the command ledger. */
@Injectable()
export class StripsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly devices: DeviceControlService,
    private readonly credentials: DeviceCredentials,
  ) {}

  async page(q: StripPageDto): Promise<PageResult<StripRow>> {
    const where = new Where()
      .addIf(q.lampName, `lower(d.name) LIKE ?`, q.lampName && likeContains(q.lampName))
      .addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.groupId, `d.group_id = ?`)
      .addIf(q.status, `s.status = ?`)
      .addIf(q.networkStatus, `s.network_status = ?`);
    const page = await pagedQuery<Omit<StripRow, 'statusLabels'>>(this.db, {
      select: STRIP_COLUMNS,
      from: 'device d JOIN strip_light s ON s.device_id = d.id LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device_group g ON g.id = d.group_id LEFT JOIN strategy st ON st.id = s.strategy_id',
      countFrom: 'device d JOIN strip_light s ON s.device_id = d.id',
      where,
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
    return { total: page.total, list: page.list.map((row) => ({ ...row, statusLabels: stripStatusLabels(row.status, row.faults) })) };
  }

  /**
   * Adds a strip light (its device record, type light strip, with the clientId as its code, and its strip row; it is
   * synchronizing until it first reports) or changes one. On edit, an optional field left out keeps its value; null
   * regionId or groupId takes the strip out of its region or group. The clientId is the strip's MQTT identity: changing
   * it needs Edit MQTT besides Edit, as a gateway's code does.
   */
  async save(caller: Caller, dto: StripAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null) await assertRegionExists(tx, dto.regionId);
        if (dto.groupId !== undefined && dto.groupId !== null) await assertStripGroup(tx, dto.groupId);
        if (dto.id === undefined) {
          const [{ id, generation }]: { id: number; generation: number }[] = await tx.query(
            `INSERT INTO device (type, code, name, region_id, group_id) VALUES ($1, $2, $3, $4, $5) RETURNING id, mqtt_generation AS generation`,
            [DeviceType.LightStrip, dto.clientId, dto.lampName, dto.regionId ?? null, dto.groupId ?? null],
          );
          await tx.query(`INSERT INTO strip_light (device_id, gateway_id, addr, mac) VALUES ($1, $2, $3, $4)`, [
            id,
            dto.gatewayId ?? '',
            dto.addr ?? '',
            dto.mac ?? '',
          ]);
          // The new strip light's MQTT login, handed out once (docs/security.md).
          return { id, mqtt: this.credentials.of(DeviceFamily.Strip, dto.clientId, generation) };
        }
        const [current]: { code: string }[] = await tx.query(`SELECT code FROM device WHERE id = $1 AND type = $2 FOR UPDATE`, [
          dto.id,
          DeviceType.LightStrip,
        ]);
        if (!current) throw AppException.notFound();
        if (current.code !== dto.clientId && !caller.buttons.includes(Button.EditMqtt)) throw AppException.field('clientId', 'clientIdNeedsEditMqtt');
        const [, affected] = (await tx.query(
          `UPDATE device SET code = $2, name = $3,
                  region_id = CASE WHEN $4::boolean THEN $5::int ELSE region_id END,
                  group_id = CASE WHEN $6::boolean THEN $7::int ELSE group_id END, updated_at = now()
            WHERE id = $1 AND type = $8`,
          [
            dto.id,
            dto.clientId,
            dto.lampName,
            dto.regionId !== undefined,
            dto.regionId ?? null,
            dto.groupId !== undefined,
            dto.groupId ?? null,
            DeviceType.LightStrip,
          ],
        )) as [unknown, number];
        if (!affected) throw AppException.notFound();
        await tx.query(
          `UPDATE strip_light SET gateway_id = coalesce($2, gateway_id), addr = coalesce($3, addr), mac = coalesce($4, mac) WHERE device_id = $1`,
          [dto.id, dto.gatewayId ?? null, dto.addr ?? null, dto.mac ?? null],
        );
        // A new MQTT identity: a new login (handed out once), and the old one ends.
        if (current.code === dto.clientId) return { id: dto.id };
        return { id: dto.id, mqtt: await this.credentials.rotate(tx, dto.id) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('clientId', 'stripClientIdTaken', { clientId: dto.clientId });
      // The region or group went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.badRequest('stripGroupInvalid');
      throw err;
    }
  }

  /** Deletes the strip's device record; its strip row and dispatch rows go with it. */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM device WHERE id = $1 AND type = $2`, [id, DeviceType.LightStrip])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }

  /**
   * Runs a light effect on the selected strips, or on every strip of a region and its sub-regions: the effect is
   * checked first, then the dispatch, its items and its outbox row are written in one transaction. A refused request
   * dispatches nothing.
   */
  async effect(caller: Caller, dto: StripEffectDto): Promise<LampControlResult> {
    const { action, params } = checkStripEffect(dto);
    return this.devices.dispatch(caller, STRIP_FAMILY, dto, action, STRIP_SELECTION, () => ({ params: { ...params } }));
  }
}

async function assertStripGroup(tx: EntityManager, groupId: number): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM device_group WHERE id = $1 AND type = $2`, [groupId, DeviceType.LightStrip]);
  if (rows.length === 0) throw AppException.field('groupId', 'stripGroupInvalid');
}

/** How strip light selections are refused. */
export const STRIP_SELECTION: SelectionWording = {
  empty: 'stripSelectionEmpty',
  ambiguous: 'stripSelectionAmbiguous',
  unknown: (shown) => AppException.badRequest('unknownStrips', { ids: shown }),
  emptyRegion: () => AppException.field('regionId', 'regionHasNoStrips'),
  gone: () => AppException.badRequest('stripSelectionEmpty'),
};
