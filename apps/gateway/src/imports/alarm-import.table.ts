import type { EntityManager } from 'typeorm';
import {
  ALARM_COLUMN_NAME_MAX,
  ALARM_FAMILY,
  DeviceType,
  NUMBER_BOUNDS,
  SIP_ACCOUNT_MAX,
  SIP_ACCOUNT_PATTERN,
  type AlarmColumnFilters,
  type AlarmLevel,
  type Language,
} from '@sc/contracts';
import { translate } from '@sc/i18n';
import { ALARM_COLUMN_FROM, alarmColumnWhere } from '../alarm-columns/alarm-column-filters';
import { networkWord, type ExportQuery, type ExportRow } from '../exports/list-export';
import { regionLabelSql } from '../regions/region-label';
import { columnOf, type ExistingRecord, type ImportTable, type RowToWrite, type RowValues } from './import-table';

const KEYS = ['name', 'code', 'sipAccount', 'regionName', 'poleCode', 'latitude', 'longitude'] as const;
const arrays = (rows: RowToWrite[]) => KEYS.map((key) => columnOf(rows, key));
const INPUT = (withIds: boolean) => `input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::float8[], $7::float8[]${withIds ? ', $8::int[]' : ''})
    AS t(name, code, sip_account, region_id, pole_id, latitude, longitude${withIds ? ', id' : ''})
)`;

const LEVEL_WORDS = ['alarmLevelOne', 'alarmLevelTwo', 'alarmLevelThree'] as const;

/**
 * Alarm columns (POST :8888/api/alarm/columnImport): a device of type 7 whose code is its MQTT identity (the logins of
 * the added ones are handed out once, as for every registry import), its SIP account (unique when given) and its own
 * position; its alarm_column row. Alarm columns are in no group, so the import takes none. The export is the list as
 * filtered, with what the columns report after the import's columns (an import ignores those).
 */
export const ALARM_IMPORT: ImportTable = {
  kind: 'column',
  mqttFamily: ALARM_FAMILY.family,
  group: null,
  codeColumn: 'code',
  columns: [
    { key: 'name', kind: 'text', required: true, max: ALARM_COLUMN_NAME_MAX, example: 'Lianhua Road alarm column 1' },
    { key: 'code', kind: 'code', required: true, example: 'ALARM-1001' },
    {
      key: 'sipAccount',
      kind: 'text',
      max: SIP_ACCOUNT_MAX,
      pattern: { test: SIP_ACCOUNT_PATTERN, reason: 'sipAccountInvalid' },
      unique: { taken: 'sipAccountTaken', param: 'sip' },
      example: '8001',
    },
    { key: 'regionName', kind: 'region', example: 'Futian District' },
    { key: 'poleCode', kind: 'pole', example: '' },
    { key: 'latitude', kind: 'number', range: NUMBER_BOUNDS.latitude, example: 22.5431 },
    { key: 'longitude', kind: 'number', range: NUMBER_BOUNDS.longitude, example: 114.0579 },
  ],
  listColumns: ['networkStatus', 'ipAddress', 'swver', 'hwver', 'volume', 'lastPressAt', 'lastPressLevel', 'pressCount'],

  async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
    const rows: (RowValues & { id: number; code: string })[] = await tx.query(
      `SELECT d.id, d.name, d.code, a.sip_account AS "sipAccount", d.region_id AS "regionName", d.pole_id AS "poleCode", d.latitude, d.longitude
         FROM device d JOIN alarm_column a ON a.device_id = d.id
        WHERE d.type = $1 AND d.code = ANY($2::text[])`,
      [DeviceType.OneKeyAlarm, codes],
    );
    return new Map(rows.map(({ id, ...values }) => [values.code, { id, groupIds: [], values }]));
  },

  async insert(tx: EntityManager, rows: RowToWrite[]): Promise<void> {
    await tx.query(
      `WITH ${INPUT(false)}, added AS (
         INSERT INTO device (type, code, name, region_id, pole_id, latitude, longitude)
         SELECT $8, code, name, region_id, pole_id, latitude, longitude FROM input RETURNING id, code
       )
       INSERT INTO alarm_column (device_id, sip_account) SELECT added.id, coalesce(i.sip_account, '') FROM added JOIN input i USING (code)`,
      [...arrays(rows), DeviceType.OneKeyAlarm],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[]): Promise<void> {
    await tx.query(
      `WITH ${INPUT(true)}, devices AS (
         UPDATE device d SET name = i.name, region_id = i.region_id, pole_id = i.pole_id, latitude = i.latitude, longitude = i.longitude,
                updated_at = now()
           FROM input i WHERE d.id = i.id
       )
       UPDATE alarm_column a SET sip_account = coalesce(i.sip_account, '') FROM input i WHERE a.device_id = i.id`,
      [...arrays(rows), rows.map((r) => r.id)],
    );
  },

  async holders(db: EntityManager, _column: string, accounts: string[]): Promise<Map<string, string>> {
    const rows: { sip: string; code: string }[] = await db.query(
      `SELECT a.sip_account AS sip, d.code FROM alarm_column a JOIN device d ON d.id = a.device_id WHERE a.sip_account = ANY($1::text[])`,
      [accounts],
    );
    return new Map(rows.map((r) => [r.sip, r.code]));
  },

  exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
    return {
      select: `d.name, d.code, a.sip_account AS "sipAccount", ${regionLabelSql('r', lng)} AS "regionName", p.code AS "poleCode",
        d.latitude, d.longitude, a.network_status AS "networkStatus", a.ip_address AS "ipAddress", a.swver, a.hwver, a.volume,
        to_char(a.last_press_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"') AS "lastPressAt", a.last_press_level AS "lastPressLevel",
        a.press_count AS "pressCount"`,
      from: ALARM_COLUMN_FROM,
      where: alarmColumnWhere(f as AlarmColumnFilters),
      orderBy: 'd.id',
      id: 'd.id',
    };
  },

  present(row: ExportRow, lng: Language): ExportRow {
    return {
      ...row,
      networkStatus: networkWord(lng, row.networkStatus),
      lastPressLevel: row.lastPressLevel === null ? '' : translate(lng, LEVEL_WORDS[row.lastPressLevel as AlarmLevel]),
    };
  },
};
