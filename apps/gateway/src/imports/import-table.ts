import type { EntityManager } from 'typeorm';
import { IMPORT_GROUP_FIELD, type DeviceFamily, type DeviceType, type ImportKind, type Language } from '@sc/contracts';
import type { FieldKey, MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import type { ExportQuery, ExportRow, ListExportSource } from '../exports/list-export';

/**
 * How a cell is read: plain text, a device code (the MQTT-safe pattern), a MAC address (six pairs of hex digits with
 * colons, kept in capitals), a number, yes or no, a region named by its name, a lamp pole named by its code, a lamp
 * gateway named by its code, or a Wi-Fi access controller named by its serial number. Regions, poles, gateways and
 * controllers become ids. A `gatewayCode` stays the gateway's code (lamps refer to their gateway by code): a recorded
 * gateway, or the code the record already has (lamps report their gateway, which may not be recorded yet). A `boolean`
 * cell is a spreadsheet's TRUE / FALSE, 1 / 0, true / false, or yes / no in any of the four languages.
 */
export type CellKind = 'text' | 'code' | 'mac' | 'number' | 'boolean' | 'region' | 'pole' | 'gateway' | 'gatewayCode' | 'controller';

/** Cells that name a record by its code, and become its id. */
export type ReferenceKind = 'pole' | 'gateway' | 'controller';

export interface ImportColumn {
  /** The row field, and the key of its header label under `fields` in the server catalogue. */
  key: FieldKey;
  kind: CellKind;
  required?: boolean;
  /** Longest text. */
  max?: number;
  /** Bounds of a number. */
  range?: { min: number; max: number };
  /** A number must be whole. */
  integer?: boolean;
  /** Text must match (as the record's own form checks it), or the cell is refused with `reason`. */
  pattern?: { test: RegExp; reason: MessageKey };
  /**
   * What an empty cell reads as, and what a new record gets when the file has no such column (a column the record
   * cannot leave empty: a terminal's volumes, its priority). Without one, an empty cell clears the value.
   */
  empty?: string | number | boolean;
  /**
   * At most one row of a file may say yes in this (boolean) column, as at most one record may be so (the default
   * terminal); every row that does is refused with this reason, naming the others.
   */
  onlyOne?: MessageKey;
  /**
   * No two records of the table may have the same value (an access point's MAC): two rows of a file with it are both
   * refused ('importDuplicateValue', naming the other rows), and so is a row whose value a record with another key has
   * (`taken`, its parameter `param` the value). The table's `holders` finds those records.
   */
  unique?: { taken: MessageKey; param: string };
  /** The template's example row. */
  example: string | number | boolean;
}

/** A row's values after reading: text, numbers, yes or no, and ids of regions and poles (null when empty). */
export type RowValues = Record<string, string | number | boolean | null>;

/** A record already in the database: its id, the import groups it is in, and the value of every column (as RowValues hold them). */
export interface ExistingRecord {
  id: number;
  groupIds: number[];
  values: RowValues;
}

/** The records of `rows` by their key, each with its group (null: none) as the only group it can be in. */
export function byKey<R extends { id: number; groupId: number | null }>(rows: R[], key: (row: R) => string): Map<string, ExistingRecord> {
  return new Map(
    rows.map((row) => {
      const { id, groupId, ...values } = row;
      return [key(row), { id, groupIds: groupId === null ? [] : [groupId], values: values as unknown as RowValues }];
    }),
  );
}

/**
 * The group an import puts its records into (the spec asks every import for one): how the chosen group is checked,
 * and kept from deletion (FOR KEY SHARE) until the rows are written.
 */
export interface ImportGroup {
  check(db: EntityManager, groupId: number): Promise<void>;
}

/** A device group (device_group) of one device type: records are in one group at a time, and importing moves them. */
export function deviceGroupOf(type: DeviceType): ImportGroup {
  return {
    async check(db, groupId) {
      const [group]: { type: number }[] = await db.query(`SELECT type FROM device_group WHERE id = $1 FOR KEY SHARE`, [groupId]);
      if (!group) throw AppException.field(IMPORT_GROUP_FIELD, 'importGroupNotFound');
      if (group.type !== (type as number)) throw AppException.field(IMPORT_GROUP_FIELD, 'importGroupWrongType');
    },
  };
}

/** Rows to write: the values of every column (for updates, the file's merged over the record's) and the id to update. */
export interface RowToWrite {
  id?: number;
  values: RowValues;
}

/** One import target: its columns, how records are found by code, and the bulk statements that write them. */
export interface ImportTable {
  kind: ImportKind;
  /** The MQTT family of the records, when each is a device with a login of its own (handed out after the import). */
  mqttFamily?: DeviceFamily;
  /**
   * The group the chosen `groupId` names; null for records that are in no group (Wi-Fi devices): their import takes
   * no group, and a `groupId` sent with the file is ignored.
   */
  group: ImportGroup | null;
  columns: readonly ImportColumn[];
  /** Columns of the list an export adds after the import's (a status): read-only, an import ignores them. */
  listColumns?: readonly FieldKey[];
  /** The column rows are matched on (and where a duplicate is reported). */
  codeColumn: FieldKey;
  /** The key a row is matched on, when the code alone is not unique (a loop's code is unique within its gateway). */
  keyOf?: (values: RowValues) => string;
  /** Existing records with these keys, by key. */
  load(tx: EntityManager, keys: string[]): Promise<Map<string, ExistingRecord>>;
  /** Writes new records; `groupId` is the chosen group (null when the table has none). */
  insert(tx: EntityManager, rows: RowToWrite[], groupId: number | null): Promise<void>;
  update(tx: EntityManager, rows: RowToWrite[], groupId: number | null): Promise<void>;
  /** The keys of the records that have these values of a `unique` column, by value (needed when a column is unique). */
  holders?(db: EntityManager, column: string, values: string[]): Promise<Map<string, string>>;
  /**
   * The list's export (ListExportSource.query): the records matching the list's filters, each with the display values
   * of the columns in `lng` (regions by name, poles and gateways by code), so the file can be imported again.
   */
  exportQuery(filters: Record<string, unknown>, lng: Language): ExportQuery;
  /** What becomes of an exported row before it is written (ListExportSource.present). */
  present?(row: ExportRow, lng: Language): ExportRow;
}

/** The key a row of the table is matched on. */
export function keyOf(table: ImportTable, values: RowValues): string {
  return table.keyOf ? table.keyOf(values) : String(values[table.codeColumn] ?? '');
}

/** The values of one column of every row, as an array for unnest(). */
export function columnOf(rows: readonly RowToWrite[], key: string): (string | number | boolean | null)[] {
  return rows.map((r) => r.values[key] ?? null);
}

/** The table's list as an export: the import's columns, then the list's own. */
export function exportSourceOf(table: ImportTable): ListExportSource {
  return {
    sheetName: table.kind,
    columns: [...table.columns.map((c) => c.key), ...(table.listColumns ?? [])],
    query: (filters, lng) => table.exportQuery(filters, lng),
    present: table.present,
  };
}
