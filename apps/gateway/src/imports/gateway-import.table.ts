import type { EntityManager } from 'typeorm';
import { DeviceFamily, DeviceType, NUMBER_BOUNDS, GATEWAY_NAME_MAX, type Language } from '@sc/contracts';
import { Where, likeContains } from '../common/sql';
import { REGION_AND_BELOW } from '../common/device-selection';
import type { ExportQuery } from '../exports/list-export';
import { byKey, columnOf, deviceGroupOf, type ExistingRecord, type ImportTable, type RowToWrite } from './import-table';
import { regionLabelSql } from '../regions/region-label';

const GATEWAY_KEYS = ['gatewayId', 'name', 'regionId', 'addr', 'longitude', 'latitude'] as const;

/**
 * Lamp gateways (POST :8888/api/light/gatewayImport), matched on their code (what their lamps report as gatewayId).
 * The chosen group is a group of single lamps: the lamps the gateways serve (lamp_gateway.group_id).
 */
export const GATEWAY_IMPORT: ImportTable = {
  kind: 'gateway',
  mqttFamily: DeviceFamily.LampGateway,
  group: deviceGroupOf(DeviceType.SingleLamp),
  codeColumn: 'gatewayId',
  columns: [
    { key: 'gatewayId', kind: 'code', required: true, example: 'LGW-10' },
    { key: 'name', kind: 'text', required: true, max: GATEWAY_NAME_MAX, example: 'Shennan Avenue gateway' },
    { key: 'regionId', kind: 'region', example: 'Futian District' },
    { key: 'addr', kind: 'text', max: 255, example: 'Shennan Avenue No. 1, cabinet 3' },
    { key: 'longitude', kind: 'number', range: NUMBER_BOUNDS.longitude, example: 114.0579 },
    { key: 'latitude', kind: 'number', range: NUMBER_BOUNDS.latitude, example: 22.5431 },
  ],

  async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
    const rows: (Record<string, string | number | null> & { id: number; groupId: number | null; gatewayId: string })[] = await tx.query(
      `SELECT id, group_id AS "groupId", code AS "gatewayId", name, region_id AS "regionId", addr, longitude, latitude
         FROM lamp_gateway WHERE code = ANY($1::text[])`,
      [codes],
    );
    return byKey(rows, (row) => row.gatewayId);
  },

  async insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `INSERT INTO lamp_gateway (code, name, region_id, addr, longitude, latitude, group_id)
       SELECT code, name, region_id, addr, longitude, latitude, $7
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::float8[], $6::float8[]) AS t(code, name, region_id, addr, longitude, latitude)`,
      [...GATEWAY_KEYS.map((k) => columnOf(rows, k)), groupId],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `UPDATE lamp_gateway g SET name = i.name, region_id = i.region_id, addr = i.addr, longitude = i.longitude, latitude = i.latitude,
              group_id = $8, updated_at = now()
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::float8[], $6::float8[], $7::int[])
           AS i(code, name, region_id, addr, longitude, latitude, id)
        WHERE g.id = i.id`,
      [...GATEWAY_KEYS.map((k) => columnOf(rows, k)), rows.map((r) => r.id), groupId],
    );
  },

  exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
    const where = new Where()
      .addIf(f.name, `concat_ws(chr(1), lower(g.name), lower(g.code)) LIKE ?`, typeof f.name === 'string' ? likeContains(f.name) : undefined)
      .addIf(f.regionId, `g.region_id IN (${REGION_AND_BELOW})`)
      .addIf(f.networkStatus, `g.network_status = ?`);
    return {
      select: `g.code AS "gatewayId", g.name, ${regionLabelSql('r', lng)} AS "regionId", g.addr, g.longitude, g.latitude`,
      from: `lamp_gateway g LEFT JOIN region r ON r.id = g.region_id`,
      where,
      orderBy: 'g.code',
      id: 'g.id',
    };
  },
};
