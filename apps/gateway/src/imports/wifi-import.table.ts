import type { EntityManager } from 'typeorm';
import { AC_FAMILY, AP_FAMILY, DeviceType, WIFI_LABEL_MAX, WIFI_NAME_MAX, type DeviceFamily, type Language, type OnlineState } from '@sc/contracts';
import type { MessageKey } from '@sc/i18n';
import type { ExportQuery, ExportRow } from '../exports/list-export';
import { networkWord } from '../exports/list-export';
import { regionLabelSql } from '../regions/region-label';
import { AC_FROM, AP_FROM, wifiDeviceWhere, type WifiDeviceFilters } from '../wifi/wifi-filters';
import { columnOf, type ExistingRecord, type ImportColumn, type ImportTable, type RowToWrite, type RowValues } from './import-table';

/** What differs between the imports of access controllers and of access points. */
interface WifiImportKind {
  kind: 'ac' | 'ap';
  family: DeviceFamily;
  type: DeviceType;
  table: 'wifi_ac' | 'wifi_ap';
  from: string;
  macTaken: MessageKey;
  example: { name: string; sn: string; mac: string; model: string };
}

/** The record's columns both kinds share: name, serial number (the device code), MAC, model and type, region and pole. */
const deviceColumns = (k: WifiImportKind): ImportColumn[] => [
  { key: 'devName', kind: 'text', required: true, max: WIFI_NAME_MAX, example: k.example.name },
  { key: 'devSN', kind: 'code', required: true, example: k.example.sn },
  { key: 'devMac', kind: 'mac', required: true, unique: { taken: k.macTaken, param: 'mac' }, example: k.example.mac },
  { key: 'devModel', kind: 'text', max: WIFI_LABEL_MAX, example: k.example.model },
  { key: 'devType', kind: 'text', max: WIFI_LABEL_MAX, example: 'Outdoor' },
  { key: 'regionName', kind: 'region', example: 'Futian District' },
  { key: 'poleCode', kind: 'pole', example: '' },
];

/** The unnest() input of the rows, in the order of `keys`, with the record ids last when `withIds`. */
function input(keys: readonly string[], types: readonly string[], withIds: boolean): string {
  const params = types.map((type, i) => `$${i + 1}::${type}[]`);
  const names = keys.map((key) => COLUMN_NAMES[key]);
  if (withIds) {
    params.push(`$${types.length + 1}::int[]`);
    names.push('id');
  }
  return `input AS (SELECT * FROM unnest(${params.join(', ')}) AS t(${names.join(', ')}))`;
}

const COLUMN_NAMES: Record<string, string> = {
  devName: 'name',
  devSN: 'code',
  devMac: 'dev_mac',
  devModel: 'dev_model',
  devType: 'dev_type',
  regionName: 'region_id',
  poleCode: 'pole_id',
  acSN: 'ac_id',
};

/**
 * Access controllers (POST :8888/api/wifi/acImport) or access points (apImport): a registry device whose code is the
 * serial number (its MQTT identity; the logins of the added ones are handed out once, as for every registry import)
 * and its wifi_ac or wifi_ap row. An access point's row names its controller by serial number. MAC addresses are
 * unique within their kind and kept in capitals. Wi-Fi devices are in no group, so the import takes none. The export
 * is the list as filtered, with what the devices report after the import's columns.
 */
function wifiImport(
  k: WifiImportKind,
  own: ImportColumn[],
  ownSql: { select: string; export: string },
  listColumns: ImportTable['listColumns'],
): ImportTable {
  const columns = [...deviceColumns(k), ...own];
  const keys = columns.map((c) => c.key);
  const types = keys.map((key) => (['regionName', 'poleCode', 'acSN'].includes(key) ? 'int' : 'text'));
  const rowColumns = keys.filter((key) => COLUMN_NAMES[key].startsWith('dev_') || key === 'acSN').map((key) => COLUMN_NAMES[key]);
  const arrays = (rows: RowToWrite[]) => keys.map((key) => columnOf(rows, key));
  return {
    kind: k.kind,
    mqttFamily: k.family,
    group: null,
    codeColumn: 'devSN',
    columns,
    listColumns,

    async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
      const rows: (RowValues & { id: number; devSN: string })[] = await tx.query(
        `SELECT d.id, d.name AS "devName", d.code AS "devSN", w.dev_mac AS "devMac", w.dev_model AS "devModel", w.dev_type AS "devType",
                d.region_id AS "regionName", d.pole_id AS "poleCode"${ownSql.select}
           FROM device d JOIN ${k.table} w ON w.device_id = d.id
          WHERE d.type = $1 AND d.code = ANY($2::text[])`,
        [k.type, codes],
      );
      return new Map(rows.map(({ id, ...values }) => [values.devSN, { id, groupIds: [], values }]));
    },

    async insert(tx: EntityManager, rows: RowToWrite[]): Promise<void> {
      await tx.query(
        `WITH ${input(keys, types, false)}, added AS (
           INSERT INTO device (type, code, name, region_id, pole_id) SELECT $${keys.length + 1}, code, name, region_id, pole_id FROM input RETURNING id, code
         )
         INSERT INTO ${k.table} (device_id, ${rowColumns.join(', ')})
         SELECT added.id, ${rowColumns.map((c) => `i.${c}`).join(', ')} FROM added JOIN input i USING (code)`,
        [...arrays(rows), k.type],
      );
    },

    async update(tx: EntityManager, rows: RowToWrite[]): Promise<void> {
      await tx.query(
        `WITH ${input(keys, types, true)}, devices AS (
           UPDATE device d SET name = i.name, region_id = i.region_id, pole_id = i.pole_id, updated_at = now() FROM input i WHERE d.id = i.id
         )
         UPDATE ${k.table} w SET ${rowColumns.map((c) => `${c} = i.${c}`).join(', ')} FROM input i WHERE w.device_id = i.id`,
        [...arrays(rows), rows.map((r) => r.id)],
      );
    },

    async holders(db: EntityManager, _column: string, macs: string[]): Promise<Map<string, string>> {
      const rows: { mac: string; code: string }[] = await db.query(
        `SELECT w.dev_mac AS mac, d.code FROM ${k.table} w JOIN device d ON d.id = w.device_id WHERE w.dev_mac = ANY($1::text[])`,
        [macs],
      );
      return new Map(rows.map((r) => [r.mac, r.code]));
    },

    exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
      return {
        select: `d.name AS "devName", d.code AS "devSN", w.dev_mac AS "devMac", w.dev_model AS "devModel", w.dev_type AS "devType",
                 ${regionLabelSql('r', lng)} AS "regionName", p.code AS "poleCode", w.network_status AS "networkStatus",
                 w.cpu_ratio AS "cpuRatio", w.memory_ratio AS "memoryRatio", w.disk_ratio AS "diskRatio"${ownSql.export}`,
        from: k.from,
        where: wifiDeviceWhere(f as WifiDeviceFilters),
        orderBy: 'd.id',
        id: 'd.id',
      };
    },

    present(row: ExportRow, lng: Language): ExportRow {
      return { ...row, networkStatus: networkWord(lng, row.networkStatus as OnlineState) };
    },
  };
}

const LOAD_COLUMNS = ['networkStatus', 'cpuRatio', 'memoryRatio', 'diskRatio'] as const;

/** Access controllers: the export adds their load and how many access points each manages. */
export const AC_IMPORT: ImportTable = wifiImport(
  {
    kind: 'ac',
    family: AC_FAMILY.family,
    type: DeviceType.AccessController,
    table: 'wifi_ac',
    from: AC_FROM,
    macTaken: 'acMacTaken',
    example: { name: 'Lianhua Road AC', sn: 'AC-1001', mac: '58:2A:F7:10:00:01', model: 'AC6508' },
  },
  [],
  { select: '', export: `, (SELECT count(*)::int FROM wifi_ap a WHERE a.ac_id = d.id) AS "apCount"` },
  [...LOAD_COLUMNS, 'apCount'],
);

/** Access points, each under the controller its row names by serial number: the export adds their load and clients. */
export const AP_IMPORT: ImportTable = wifiImport(
  {
    kind: 'ap',
    family: AP_FAMILY.family,
    type: DeviceType.AccessPoint,
    table: 'wifi_ap',
    from: AP_FROM,
    macTaken: 'apMacTaken',
    example: { name: 'Lianhua Road AP 1', sn: 'AP-1001', mac: '58:2A:F7:20:00:01', model: 'AirEngine 5761' },
  },
  [{ key: 'acSN', kind: 'controller', required: true, example: 'AC-1001' }],
  { select: `, w.ac_id AS "acSN"`, export: `, c.code AS "acSN", w.client_count AS "clientCount"` },
  [...LOAD_COLUMNS, 'clientCount'],
);
