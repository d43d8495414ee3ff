import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  Button,
  DeviceFamily,
  type GatewayOption,
  type GatewayRow,
  type LoopOption,
  type LoopRow,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { REGION_AND_BELOW } from '../common/device-selection';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { GatewayAddOrEditDto, GatewayPageDto, LoopAddOrEditDto, LoopPageDto } from './dto/equipment.dto';
import { assertPosition, gatewayByCode } from './lighting.service';

const GATEWAY_COLUMNS = `gw.id, gw.code AS "gatewayId", gw.name, gw.region_id AS "regionId", r.region_name AS "regionName", gw.addr,
  gw.latitude, gw.longitude, gw.network_status AS "networkStatus", gw.hardware_version AS "hardwareVersion",
  gw.software_version AS "softwareVersion", gw.reported_at AS "reportedAt",
  (SELECT count(*)::int FROM lamp_loop lp WHERE lp.gateway_id = gw.id) AS "loopCount",
  (SELECT count(*)::int FROM lamp l WHERE l.gateway_id = gw.code) AS "lampCount",
  (SELECT count(*)::int FROM lamp l WHERE l.gateway_id = gw.code AND l.network_status = 1) AS "onlineLampCount"`;

const LOOP_COLUMNS = `lp.id, lp.code, lp.name, gw.code AS "gatewayId", gw.name AS "gatewayName", lp.remark,
  (SELECT count(*)::int FROM lamp l WHERE l.loop_id = lp.id) AS "lampCount"`;

/** At most this many options in a select; a larger installation filters by typing. */
const OPTIONS_MAX = 1000;

/**
 * Lamp gateways (concentrators) and their loops. A gateway's code is what its lamps report as gatewayId, so lamps
 * refer to a gateway by code; changing the code (its MQTT identity) needs Edit MQTT and carries its lamps along.
 */
@Injectable()
export class GatewaysService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly credentials: DeviceCredentials,
  ) {}

  page(q: GatewayPageDto): Promise<PageResult<GatewayRow>> {
    const where = new Where()
      .addIf(q.name, `lower(gw.name || ' ' || gw.code) LIKE ?`, q.name && likeContains(q.name))
      .addIf(q.regionId, `gw.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.networkStatus, `gw.network_status = ?`);
    return pagedQuery<GatewayRow>(this.db, {
      select: GATEWAY_COLUMNS,
      from: 'lamp_gateway gw LEFT JOIN region r ON r.id = gw.region_id',
      countFrom: 'lamp_gateway gw',
      where,
      orderBy: 'gw.code',
      outerOrderBy: 'page."gatewayId"',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  options(): Promise<GatewayOption[]> {
    return this.db.query(`SELECT code AS "gatewayId", name FROM lamp_gateway ORDER BY code LIMIT ${OPTIONS_MAX}`);
  }

  async save(caller: Caller, dto: GatewayAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    assertPosition(dto.latitude, dto.longitude);
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null) {
          const rows: unknown[] = await tx.query(`SELECT 1 FROM region WHERE id = $1`, [dto.regionId]);
          if (rows.length === 0) throw AppException.field('regionId', 'regionNotFound');
        }
        if (dto.id === undefined) {
          const [{ id, generation }]: { id: number; generation: number }[] = await tx.query(
            `INSERT INTO lamp_gateway (code, name, region_id, addr, latitude, longitude) VALUES ($1, $2, $3, $4, $5, $6)
             RETURNING id, mqtt_generation AS generation`,
            [dto.gatewayId, dto.name, dto.regionId ?? null, dto.addr ?? '', dto.latitude ?? null, dto.longitude ?? null],
          );
          // The new gateway's MQTT login, handed out once (docs/security.md).
          return { id, mqtt: this.credentials.of(DeviceFamily.LampGateway, dto.gatewayId, generation) };
        }
        const [current]: { code: string }[] = await tx.query(`SELECT code FROM lamp_gateway WHERE id = $1 FOR UPDATE`, [dto.id]);
        if (!current) throw AppException.notFound();
        const recoded = current.code !== dto.gatewayId;
        if (recoded) {
          if (!caller.buttons.includes(Button.EditMqtt)) throw AppException.field('gatewayId', 'clientIdNeedsEditMqtt');
          // Its lamps and strip lights follow it: they refer to the gateway by code.
          await tx.query(`UPDATE lamp SET gateway_id = $2 WHERE gateway_id = $1`, [current.code, dto.gatewayId]);
          await tx.query(`UPDATE strip_light SET gateway_id = $2 WHERE gateway_id = $1`, [current.code, dto.gatewayId]);
        }
        await tx.query(
          `UPDATE lamp_gateway SET code = $2, name = $3, addr = coalesce($4, addr),
                  region_id = CASE WHEN $5::boolean THEN $6::int ELSE region_id END,
                  latitude = CASE WHEN $7::boolean THEN $8::float8 ELSE latitude END,
                  longitude = CASE WHEN $7::boolean THEN $9::float8 ELSE longitude END,
                  updated_at = now()
            WHERE id = $1`,
          [
            dto.id,
            dto.gatewayId,
            dto.name,
            dto.addr ?? null,
            dto.regionId !== undefined,
            dto.regionId ?? null,
            dto.latitude !== undefined,
            dto.latitude ?? null,
            dto.longitude ?? null,
          ],
        );
        if (!recoded) return { id: dto.id };
        // A new MQTT identity: a new login, and the old one ends.
        return { id: dto.id, mqtt: await this.credentials.renew(tx, DeviceFamily.LampGateway, dto.id) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('gatewayId', 'gatewayCodeTaken', { code: dto.gatewayId });
      if (isForeignKeyViolation(err)) throw AppException.field('regionId', 'regionNotFound');
      throw err;
    }
  }

  /** Deletes a gateway and its loops; refused while lamps or strip lights still name it. */
  async remove(id: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const [gateway]: { code: string }[] = await tx.query(`SELECT code FROM lamp_gateway WHERE id = $1 FOR UPDATE`, [id]);
      if (!gateway) throw AppException.notFound();
      const [{ n }]: { n: number }[] = await tx.query(
        `SELECT ((SELECT count(*) FROM lamp WHERE gateway_id = $1) + (SELECT count(*) FROM strip_light WHERE gateway_id = $1))::int AS n`,
        [gateway.code],
      );
      if (n > 0) throw AppException.badRequest('gatewayHasLamps', { count: n });
      await tx.query(`DELETE FROM lamp_gateway WHERE id = $1`, [id]);
    });
  }

  loopPage(q: LoopPageDto): Promise<PageResult<LoopRow>> {
    const where = new Where()
      .addIf(q.gatewayId, `gw.code = ?`)
      .addIf(q.name, `lower(lp.name || ' ' || lp.code) LIKE ?`, q.name && likeContains(q.name));
    return pagedQuery<LoopRow>(this.db, {
      select: LOOP_COLUMNS,
      from: 'lamp_loop lp JOIN lamp_gateway gw ON gw.id = lp.gateway_id',
      where,
      orderBy: 'gw.code, lp.code',
      outerOrderBy: 'page."gatewayId", page.code',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async loopOptions(gatewayId: string): Promise<LoopOption[]> {
    return this.db.query(
      `SELECT lp.id, lp.code, lp.name FROM lamp_loop lp JOIN lamp_gateway gw ON gw.id = lp.gateway_id
        WHERE gw.code = $1 ORDER BY lp.code LIMIT ${OPTIONS_MAX}`,
      [gatewayId],
    );
  }

  async saveLoop(caller: Caller, dto: LoopAddOrEditDto): Promise<{ id: number }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    try {
      return await this.db.transaction(async (tx) => {
        const gateway = await gatewayByCode(tx, dto.gatewayId, 'gatewayId');
        if (dto.id === undefined) {
          const [{ id }]: { id: number }[] = await tx.query(
            `INSERT INTO lamp_loop (gateway_id, code, name, remark) VALUES ($1, $2, $3, $4) RETURNING id`,
            [gateway.id, dto.code, dto.name, dto.remark ?? ''],
          );
          return { id };
        }
        const [current]: { gateway_id: number }[] = await tx.query(`SELECT gateway_id FROM lamp_loop WHERE id = $1 FOR UPDATE`, [dto.id]);
        if (!current) throw AppException.notFound();
        await tx.query(
          `UPDATE lamp_loop SET gateway_id = $2, code = $3, name = $4, remark = coalesce($5, remark), updated_at = now() WHERE id = $1`,
          [dto.id, gateway.id, dto.code, dto.name, dto.remark ?? null],
        );
        // A loop moved to another gateway takes its lamps along.
        if (current.gateway_id !== gateway.id) await tx.query(`UPDATE lamp SET gateway_id = $2 WHERE loop_id = $1`, [dto.id, dto.gatewayId]);
        return { id: dto.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('code', 'loopCodeTaken', { code: dto.code });
      throw err;
    }
  }

  /** Deletes a loop; its lamps stay on their gateway, unbound from any loop. */
  async removeLoop(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM lamp_loop WHERE id = $1`, [id])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }
}
