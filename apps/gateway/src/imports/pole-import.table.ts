import type { EntityManager } from 'typeorm';
import { DeviceFamily, DeviceType, NUMBER_BOUNDS, POLE_NAME_MAX, type Language } from '@sc/contracts';
import { poleWhere, type PoleFilters } from '../poles/pole-filters';
import type { ExportQuery } from '../exports/list-export';
import { byKey, columnOf, deviceGroupOf, type ExistingRecord, type ImportTable, type RowToWrite } from './import-table';
import { regionLabelSql } from '../regions/region-label';

const POLE_KEYS = ['name', 'code', 'regionId', 'longitude', 'latitude', 'address', 'remark'] as const;

/** Lamp poles (POST :8888/api/lamp/lampImport): a device of type lamp pole and its lamp_pole row. */
export const POLE_IMPORT: ImportTable = {
  kind: 'lamp',
  mqttFamily: DeviceFamily.Pole,
  group: deviceGroupOf(DeviceType.LampPole),
  codeColumn: 'code',
  columns: [
    { key: 'name', kind: 'text', required: true, max: POLE_NAME_MAX, example: 'Shennan Avenue pole 1' },
    { key: 'code', kind: 'code', required: true, example: 'POLE-10001' },
    { key: 'regionId', kind: 'region', example: 'Futian District' },
    { key: 'longitude', kind: 'number', range: NUMBER_BOUNDS.longitude, example: 114.0579 },
    { key: 'latitude', kind: 'number', range: NUMBER_BOUNDS.latitude, example: 22.5431 },
    { key: 'address', kind: 'text', max: 255, example: 'Shennan Avenue No. 2' },
    { key: 'remark', kind: 'text', max: 255, example: '' },
  ],

  async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
    const rows: (Record<string, string | number | null> & { id: number; groupId: number | null; code: string })[] = await tx.query(
      `SELECT d.id, d.group_id AS "groupId", d.name, d.code, d.region_id AS "regionId", d.longitude, d.latitude, p.address, p.remark
         FROM device d JOIN lamp_pole p ON p.device_id = d.id
        WHERE d.type = $1 AND d.code = ANY($2::text[])`,
      [DeviceType.LampPole, codes],
    );
    return byKey(rows, (row) => row.code);
  },

  async insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[], $5::float8[], $6::text[], $7::text[])
           AS t(name, code, region_id, longitude, latitude, address, remark)
       ), added AS (
         INSERT INTO device (type, code, name, region_id, group_id, longitude, latitude)
         SELECT $8, code, name, region_id, $9, longitude, latitude FROM input
         RETURNING id, code
       )
       INSERT INTO lamp_pole (device_id, address, remark)
       SELECT added.id, input.address, input.remark FROM added JOIN input USING (code)`,
      [...POLE_KEYS.map((k) => columnOf(rows, k)), DeviceType.LampPole, groupId],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `WITH input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::float8[], $5::float8[], $6::text[], $7::text[], $8::int[])
           AS t(name, code, region_id, longitude, latitude, address, remark, id)
       ), devices AS (
         UPDATE device d SET name = i.name, region_id = i.region_id, group_id = $9, longitude = i.longitude,
                latitude = i.latitude, updated_at = now()
           FROM input i WHERE d.id = i.id
       )
       UPDATE lamp_pole p SET address = i.address, remark = i.remark FROM input i WHERE p.device_id = i.id`,
      [...POLE_KEYS.map((k) => columnOf(rows, k)), rows.map((r) => r.id), groupId],
    );
  },

  exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
    return {
      select: `d.name, d.code, ${regionLabelSql('r', lng)} AS "regionId", d.longitude, d.latitude, p.address, p.remark`,
      from: `device d JOIN lamp_pole p ON p.device_id = d.id LEFT JOIN region r ON r.id = d.region_id`,
      where: poleWhere(f as PoleFilters),
      orderBy: 'd.code',
      id: 'd.id',
    };
  },
};
