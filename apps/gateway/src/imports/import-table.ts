import type { EntityManager } from 'typeorm';
import type { DeviceFamily, DeviceType, ImportKind, Language } from '@sc/contracts';
import type { FieldKey } from '@sc/i18n';

/**
 * How a cell is read: plain text, a device code (the MQTT-safe pattern), a number, a region named by its name,
 * a lamp pole named by its code, or a lamp gateway named by its code. Regions, poles and gateways become ids.
 * A `gatewayCode` stays the gateway's code (lamps refer to their gateway by code): a recorded gateway, or the code
 * the record already has (lamps report their gateway, which may not be recorded yet).
 */
export type CellKind = 'text' | 'code' | 'number' | 'region' | 'pole' | 'gateway' | 'gatewayCode';

export interface ImportColumn {
  /** The row field, and the key of its header label under `fields` in the server catalogue. */
  key: FieldKey;
  kind: CellKind;
  required?: boolean;
  /** Longest text. */
  max?: number;
  /** Bounds of a number. */
  range?: { min: number; max: number };
  /** The template's example row. */
  example: string | number;
}

/** A row's values after reading: text, numbers, and ids of regions and poles (null when empty). */
export type RowValues = Record<string, string | number | null>;

/** A record already in the database: its id, its group, and the value of every column (as RowValues hold them). */
export interface ExistingRecord {
  id: number;
  groupId: number | null;
  values: RowValues;
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
  /** The device_group.type the chosen group must have. */
  groupType: DeviceType;
  columns: readonly ImportColumn[];
  /** The column rows are matched on (and where a duplicate is reported). */
  codeColumn: FieldKey;
  /** The key a row is matched on, when the code alone is not unique (a loop's code is unique within its gateway). */
  keyOf?: (values: RowValues) => string;
  /** Existing records with these keys, by key. */
  load(tx: EntityManager, keys: string[]): Promise<Map<string, ExistingRecord>>;
  insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void>;
  update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void>;
  /** Every record matching the list's filters, one object per row with the columns' display values in `lng`. */
  exportRows(db: EntityManager, filters: Record<string, unknown>, lng: Language): Promise<Record<string, unknown>[]>;
}

/** The key a row of the table is matched on. */
export function keyOf(table: ImportTable, values: RowValues): string {
  return table.keyOf ? table.keyOf(values) : String(values[table.codeColumn] ?? '');
}

/** The values of one column of every row, as an array for unnest(). */
export function columnOf(rows: readonly RowToWrite[], key: string): (string | number | null)[] {
  return rows.map((r) => r.values[key] ?? null);
}
