import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Button, DeviceFamily, DeviceType, type LampControlResult, type LampRow, type PageResult } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { DispatchService } from '../dispatch/dispatch.service';
import { InjectDb } from '../infra/database';
import type { LampAddOrEditDto, LampControlDto, LampPageDto } from './dto/lamp.dto';

const LAMP_COLUMNS = `d.id, d.name AS "lampName", d.code AS "clientId", d.region_id AS "regionId", r.region_name AS "regionName",
  l.gateway_id AS "gatewayId", l.lamp_control_id AS "lampControlId", l.addr, l.mac, l.bri, l.switch_state AS "switchState",
  l.status, l.network_status AS "networkStatus", l.telemetry, l.faults, l.hardware_version AS "hardwareVersion",
  l.software_version AS "softwareVersion", l.total_illumination_hours AS "totalIlluminationHours", l.reported_at AS "reportedAt"`;

/** The ids of a region (the `?`) and of every region below it. */
const REGION_AND_BELOW = `WITH RECURSIVE below AS (
    SELECT id FROM region WHERE id = ? UNION ALL SELECT child.id FROM region child JOIN below ON child.parent_id = below.id
  ) SELECT id FROM below`;

/** An error names at most this many unknown ids; the rest are counted. */
const UNKNOWN_IDS_SHOWN = 10;

/** Single lamps (spec sections 3 and 6): the list, its management, and control through the command ledger. */
@Injectable()
export class LightingService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly dispatches: DispatchService,
  ) {}

  page(q: LampPageDto): Promise<PageResult<LampRow>> {
    const where = new Where()
      .addIf(q.lampName, `lower(d.name) LIKE ?`, q.lampName && likeContains(q.lampName))
      .addIf(q.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(q.status, `l.status = ?`)
      .addIf(q.networkStatus, `l.network_status = ?`);
    return pagedQuery<LampRow>(this.db, {
      select: LAMP_COLUMNS,
      from: 'device d JOIN lamp l ON l.device_id = d.id LEFT JOIN region r ON r.id = d.region_id',
      countFrom: 'device d JOIN lamp l ON l.device_id = d.id',
      where,
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  /**
   * Adds a lamp (its device record, type single lamp, with the clientId as its code, and its lamp row) or changes one.
   * On edit, an optional field left out keeps its value; regionId null takes the lamp out of its region.
   */
  async save(caller: Caller, dto: LampAddOrEditDto): Promise<{ id: number }> {
    assertButton(caller, dto.id === undefined ? Button.Add : Button.Edit);
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null) await assertRegionExists(tx, dto.regionId);
        if (dto.id === undefined) {
          const [{ id }]: { id: number }[] = await tx.query(`INSERT INTO device (type, code, name, region_id) VALUES ($1, $2, $3, $4) RETURNING id`, [
            DeviceType.SingleLamp,
            dto.clientId,
            dto.lampName,
            dto.regionId ?? null,
          ]);
          await tx.query(`INSERT INTO lamp (device_id, gateway_id, lamp_control_id, addr, mac) VALUES ($1, $2, $3, $4, $5)`, [
            id,
            dto.gatewayId ?? '',
            dto.lampControlId ?? '',
            dto.addr ?? '',
            dto.mac ?? '',
          ]);
          return { id };
        }
        const [, affected] = (await tx.query(
          `UPDATE device SET code = $2, name = $3, region_id = CASE WHEN $4::boolean THEN $5::int ELSE region_id END, updated_at = now()
            WHERE id = $1 AND type = $6`,
          [dto.id, dto.clientId, dto.lampName, dto.regionId !== undefined, dto.regionId ?? null, DeviceType.SingleLamp],
        )) as [unknown, number];
        if (!affected) throw AppException.notFound();
        await tx.query(
          `UPDATE lamp SET gateway_id = coalesce($2, gateway_id), lamp_control_id = coalesce($3, lamp_control_id),
                  addr = coalesce($4, addr), mac = coalesce($5, mac)
            WHERE device_id = $1`,
          [dto.id, dto.gatewayId ?? null, dto.lampControlId ?? null, dto.addr ?? null, dto.mac ?? null],
        );
        return { id: dto.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.conflict('clientIdTaken', { clientId: dto.clientId });
      // The region was deleted between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('regionId', 'regionNotFound');
      throw err;
    }
  }

  /** Deletes the lamp's device record; its lamp row and dispatch rows go with it. */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM device WHERE id = $1 AND type = $2`, [id, DeviceType.SingleLamp])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }

  /**
   * Switches or dims the selected lamps, or every lamp of a region and its sub-regions: writes the dispatch, its
   * items and its outbox row in one transaction. Any problem with the selection refuses the whole request, so a
   * refused request dispatches nothing.
   */
  async control(caller: Caller, dto: LampControlDto): Promise<LampControlResult> {
    this.dispatches.assertMayControl(caller, DeviceFamily.Lamp, dto.action);
    const byIds = dto.ids !== undefined && dto.ids !== null;
    const byRegion = dto.regionId !== undefined && dto.regionId !== null;
    if (byIds && byRegion) throw AppException.badRequest('lampSelectionAmbiguous');
    if (!byRegion && (!byIds || dto.ids?.length === 0)) throw AppException.badRequest('lampSelectionEmpty');
    if (dto.action === 'dim' && dto.level === undefined) throw AppException.field('level', 'pleaseSelect');
    const params = dto.action === 'dim' ? { level: dto.level } : {};
    try {
      const dispatchId = await this.db.transaction(async (tx) => {
        const deviceIds = byIds ? await lampsByIds(tx, dto.ids ?? []) : await lampsOfRegion(tx, dto.regionId as number);
        return this.dispatches.create(tx, { family: DeviceFamily.Lamp, action: dto.action, params, createdBy: caller.username, deviceIds });
      });
      return { dispatchId };
    } catch (err) {
      // The row locks make this unlikely: a lamp deleted while its dispatch was being written.
      if (isForeignKeyViolation(err)) throw AppException.field(byIds ? 'ids' : 'regionId', 'lampSelectionEmpty');
      throw err;
    }
  }
}

function assertButton(caller: Caller, button: Button): void {
  if (!caller.buttons.includes(button)) throw AppException.forbidden();
}

async function assertRegionExists(tx: EntityManager, regionId: number): Promise<void> {
  const rows: unknown[] = await tx.query(`SELECT 1 FROM region WHERE id = $1`, [regionId]);
  if (rows.length === 0) throw AppException.field('regionId', 'regionNotFound');
}

/** The given lamps, locked against deletion until the dispatch is written; every id must be a lamp. */
async function lampsByIds(tx: EntityManager, ids: readonly number[]): Promise<number[]> {
  const wanted = [...new Set(ids)].sort((a, b) => a - b);
  const rows: { id: number }[] = await tx.query(
    `SELECT d.id FROM device d JOIN lamp l ON l.device_id = d.id WHERE d.id = ANY($1::int[]) ORDER BY d.id FOR KEY SHARE OF d`,
    [wanted],
  );
  if (rows.length < wanted.length) {
    const found = new Set(rows.map((r) => r.id));
    const unknown = wanted.filter((id) => !found.has(id));
    const shown =
      unknown.slice(0, UNKNOWN_IDS_SHOWN).join(', ') + (unknown.length > UNKNOWN_IDS_SHOWN ? ` (+${unknown.length - UNKNOWN_IDS_SHOWN})` : '');
    throw AppException.field('ids', 'unknownLamps', { ids: shown });
  }
  return rows.map((r) => r.id);
}

/** The lamps of a region and of its sub-regions, locked like lampsByIds; an empty region is refused. */
async function lampsOfRegion(tx: EntityManager, regionId: number): Promise<number[]> {
  await assertRegionExists(tx, regionId);
  const rows: { id: number }[] = await tx.query(
    `SELECT d.id FROM device d JOIN lamp l ON l.device_id = d.id
      WHERE d.region_id IN (${REGION_AND_BELOW.replace('?', '$1')})
      ORDER BY d.id FOR KEY SHARE OF d`,
    [regionId],
  );
  if (rows.length === 0) throw AppException.field('regionId', 'regionHasNoLamps');
  return rows.map((r) => r.id);
}
