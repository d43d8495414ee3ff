import type { EntityManager } from 'typeorm';
import { DeviceFamily, DeviceType, IMPORT_GROUP_FIELD, RADAR_NAME_MAX, type Language, type OnlineState } from '@sc/contracts';
import { AppException } from '../common/app-exception';
import type { ExportQuery, ExportRow } from '../exports/list-export';
import { radarWhere, RADAR_FROM, type RadarFilters } from '../radar/radar-filters';
import { networkWord } from '../exports/list-export';
import { regionLabelSql } from '../regions/region-label';
import { columnOf, type ExistingRecord, type ImportGroup, type ImportTable, type RowToWrite, type RowValues } from './import-table';

/** The import's columns of a radar over `device d`, its region and pole as given. */
const valuesSql = (region: string, pole: string) => `d.name AS "radarName", d.code, ${region} AS "regionId", ${pole} AS "poleCode"`;

const KEYS = ['radarName', 'code', 'regionId', 'poleCode'] as const;
const arrays = (rows: RowToWrite[]) => KEYS.map((key) => columnOf(rows, key));
const INPUT = (withIds: boolean) => `input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]${withIds ? ', $5::int[]' : ''}) AS t(name, code, region_id, pole_id${withIds ? ', id' : ''})
)`;

/** Radar groups: a radar may be in several, so importing into one adds the radars to it and leaves their other groups. */
const RADAR_GROUP: ImportGroup = {
  async check(db, groupId) {
    const found: unknown[] = await db.query(`SELECT 1 FROM radar_group WHERE id = $1 FOR KEY SHARE`, [groupId]);
    if (found.length === 0) throw AppException.field(IMPORT_GROUP_FIELD, 'importGroupNotFound');
  },
};

/**
 * Radars (POST :8888/api/radar/radarImport): a device of type radar whose code is its MQTT identity, and its radar
 * row; the chosen group is a radar group the radars join. The export adds what the radars report (status, count,
 * rate, versions, MAC, RSSI), which an import ignores.
 */
export const RADAR_IMPORT: ImportTable = {
  kind: 'radar',
  mqttFamily: DeviceFamily.Radar,
  group: RADAR_GROUP,
  codeColumn: 'code',
  columns: [
    { key: 'radarName', kind: 'text', required: true, max: RADAR_NAME_MAX, example: 'Lianhua Road radar 1' },
    { key: 'code', kind: 'code', required: true, example: 'RADAR-1001' },
    { key: 'regionId', kind: 'region', example: 'Futian District' },
    { key: 'poleCode', kind: 'pole', example: '' },
  ],
  listColumns: ['networkStatus', 'count', 'radarRate', 'swver', 'hwver', 'mac', 'rssi'],

  async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
    const rows: (RowValues & { id: number; groupIds: number[]; code: string })[] = await tx.query(
      `SELECT d.id, ARRAY(SELECT m.group_id FROM radar_group_radar m WHERE m.device_id = d.id) AS "groupIds", ${valuesSql('d.region_id', 'd.pole_id')}
         FROM device d JOIN radar_terminal t ON t.device_id = d.id
        WHERE d.type = $1 AND d.code = ANY($2::text[])`,
      [DeviceType.Radar, codes],
    );
    return new Map(rows.map(({ id, groupIds, ...values }) => [values.code, { id, groupIds, values }]));
  },

  async insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `WITH ${INPUT(false)}, added AS (
         INSERT INTO device (type, code, name, region_id, pole_id) SELECT $5, code, name, region_id, pole_id FROM input RETURNING id
       ), members AS (
         INSERT INTO radar_group_radar (group_id, device_id) SELECT $6, id FROM added
       )
       INSERT INTO radar_terminal (device_id) SELECT id FROM added`,
      [...arrays(rows), DeviceType.Radar, groupId],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await tx.query(
      `WITH ${INPUT(true)}, devices AS (
         UPDATE device d SET name = i.name, region_id = i.region_id, pole_id = i.pole_id, updated_at = now() FROM input i WHERE d.id = i.id
       )
       INSERT INTO radar_group_radar (group_id, device_id) SELECT $6, id FROM input ON CONFLICT DO NOTHING`,
      [...arrays(rows), rows.map((r) => r.id), groupId],
    );
  },

  exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
    return {
      select: `${valuesSql(regionLabelSql('r', lng), 'p.code')}, t.network_status AS "networkStatus", t.count, t.radar_rate AS "radarRate",
               t.swver, t.hwver, t.mac, t.rssi`,
      from: RADAR_FROM,
      where: radarWhere(f as RadarFilters),
      orderBy: 'd.code',
      id: 'd.id',
    };
  },

  present(row: ExportRow, lng: Language): ExportRow {
    return { ...row, networkStatus: networkWord(lng, row.networkStatus as OnlineState) };
  },
};
