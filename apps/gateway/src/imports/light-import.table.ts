import type { EntityManager } from 'typeorm';
import { DeviceFamily, DeviceType, NUMBER_BOUNDS, LAMP_NAME_MAX, type Language } from '@sc/contracts';
import { Where, likeContains } from '../common/sql';
import { REGION_AND_BELOW } from '../common/device-selection';
import type { ExportQuery } from '../exports/list-export';
import { byKey, columnOf, deviceGroupOf, type ExistingRecord, type ImportTable, type RowToWrite } from './import-table';
import { regionLabelSql } from '../regions/region-label';

const VALUES = `d.name AS "lampName", d.code AS "clientId", d.region_id AS "regionId", l.gateway_id AS "gatewayId",
  l.lamp_control_id AS "lampControlId", l.addr, l.mac, d.longitude, d.latitude, d.pole_id AS "poleCode"`;

/**
 * Single lamps (POST :8888/api/light/lightImport): a device of type single lamp whose code is the clientId, and its
 * lamp row. The export has the same columns, so an exported list can be edited and imported again.
 */
export const LIGHT_IMPORT: ImportTable = {
  kind: 'light',
  mqttFamily: DeviceFamily.Lamp,
  group: deviceGroupOf(DeviceType.SingleLamp),
  codeColumn: 'clientId',
  columns: [
    { key: 'lampName', kind: 'text', required: true, max: LAMP_NAME_MAX, example: 'Shennan Avenue lamp 1' },
    { key: 'clientId', kind: 'code', required: true, example: 'LAMP-10001' },
    { key: 'regionId', kind: 'region', example: 'Futian District' },
    { key: 'gatewayId', kind: 'gatewayCode', max: 64, example: 'LGW-01' },
    { key: 'lampControlId', kind: 'text', max: 64, example: 'LC-10001' },
    { key: 'addr', kind: 'text', max: 255, example: 'Shennan Avenue No. 2' },
    { key: 'mac', kind: 'text', max: 32, example: '02:5c:00:00:27:11' },
    { key: 'longitude', kind: 'number', range: NUMBER_BOUNDS.longitude, example: 114.0579 },
    { key: 'latitude', kind: 'number', range: NUMBER_BOUNDS.latitude, example: 22.5431 },
    { key: 'poleCode', kind: 'pole', example: '' },
  ],

  async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
    const rows: (Record<string, string | number | null> & { id: number; groupId: number | null; clientId: string })[] = await tx.query(
      `SELECT d.id, d.group_id AS "groupId", ${VALUES}
         FROM device d JOIN lamp l ON l.device_id = d.id
        WHERE d.type = $1 AND d.code = ANY($2::text[])`,
      [DeviceType.SingleLamp, codes],
    );
    return byKey(rows, (row) => row.clientId);
  },

  async insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                              $8::float8[], $9::float8[], $10::int[])
           AS t(name, code, region_id, gateway_id, lamp_control_id, addr, mac, longitude, latitude, pole_id)
       ), added AS (
         INSERT INTO device (type, code, name, region_id, group_id, longitude, latitude, pole_id)
         SELECT $11, code, name, region_id, $12, longitude, latitude, pole_id FROM input
         RETURNING id, code
       )
       INSERT INTO lamp (device_id, gateway_id, lamp_control_id, addr, mac)
       SELECT added.id, input.gateway_id, input.lamp_control_id, input.addr, input.mac FROM added JOIN input USING (code)`,
      [...lampArrays(rows), DeviceType.SingleLamp, groupId],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                              $8::float8[], $9::float8[], $10::int[], $11::int[])
           AS t(name, code, region_id, gateway_id, lamp_control_id, addr, mac, longitude, latitude, pole_id, id)
       ), devices AS (
         UPDATE device d SET name = i.name, region_id = i.region_id, group_id = $12, longitude = i.longitude,
                latitude = i.latitude, pole_id = i.pole_id, updated_at = now()
           FROM input i WHERE d.id = i.id
       )
       -- A lamp moved to another gateway leaves its loop, which belonged to the old one.
       UPDATE lamp l SET gateway_id = i.gateway_id, lamp_control_id = i.lamp_control_id, addr = i.addr, mac = i.mac,
              loop_id = CASE WHEN l.gateway_id = i.gateway_id THEN l.loop_id END
         FROM input i WHERE l.device_id = i.id`,
      [...lampArrays(rows), rows.map((r) => r.id), groupId],
    );
  },

  exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
    const where = new Where()
      .add('d.type = ?', DeviceType.SingleLamp)
      .addIf(f.lampName, `lower(d.name) LIKE ?`, typeof f.lampName === 'string' ? likeContains(f.lampName) : undefined)
      .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(f.groupId, `d.group_id = ?`)
      .addIf(f.gatewayId, `l.gateway_id = ?`)
      .addIf(f.status, `l.status = ?`)
      .addIf(f.networkStatus, `l.network_status = ?`);
    return {
      select: `d.name AS "lampName", d.code AS "clientId", ${regionLabelSql('r', lng)} AS "regionId", l.gateway_id AS "gatewayId",
               l.lamp_control_id AS "lampControlId", l.addr, l.mac, d.longitude, d.latitude, p.code AS "poleCode"`,
      from: `device d JOIN lamp l ON l.device_id = d.id LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`,
      where,
      orderBy: 'd.code',
      id: 'd.id',
    };
  },
};

function lampArrays(rows: RowToWrite[]): unknown[] {
  return ['lampName', 'clientId', 'regionId', 'gatewayId', 'lampControlId', 'addr', 'mac', 'longitude', 'latitude', 'poleCode'].map((key) =>
    columnOf(rows, key),
  );
}
