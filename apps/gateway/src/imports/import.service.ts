import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import * as XLSX from '@e965/xlsx';
import {
  DEVICE_CODE_PATTERN,
  DEVICE_TYPE_OF_FAMILY,
  DeviceFamily,
  DeviceType,
  IMPORT_DRY_RUN_FIELD,
  IMPORT_ERRORS_SHOWN,
  IMPORT_GROUP_FIELD,
  IMPORT_MAX_ROWS,
  IMPORT_SAMPLE_CODES,
  MAC_PATTERN,
  type ImportRejection,
  type ImportResult,
  type ImportRowError,
  type Language,
} from '@sc/contracts';
import { CATALOGUES, translate, translateField, type MessageKey } from '@sc/i18n';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { INT_MAX } from '../common/fields';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { InjectDb } from '../infra/database';
import { RedisService } from '../infra/redis.service';
import { WorkbookReader } from '../uploads/workbook-reader.service';
import type { SheetRow, SheetRows } from '../uploads/xlsx-sheet-stream';
import type { StoredUpload } from '../uploads/upload.service';
import { keyOf, type ExistingRecord, type ImportColumn, type ImportTable, type ReferenceKind, type RowToWrite, type RowValues } from './import-table';
import { neutraliseCell, withoutNeutralisation } from './spreadsheet-cells';

/** How long the bad rows of a refused import can be downloaded. */
const REPORT_TTL_SECONDS = 3600;

interface ReadRow {
  /** The row number a spreadsheet program shows. */
  rowNumber: number;
  /** The values of the columns present in the file. */
  values: RowValues;
  /**
   * Columns whose cell was refused (and reads as null), one bit per column of the table (`columnBit`): a number rather
   * than a set, since a file of 100,000 bad rows would otherwise hold 100,000 sets.
   */
  bad: number;
  /** Gateway-code columns naming a gateway nobody recorded, as bits: refused unless the record already has that code. */
  unrecorded: number;
}

/** Translated reasons, one string for the errors that give the same one (a file may have 100,000 of them). */
class Reasons {
  private readonly known = new Map<string, string>();

  constructor(private readonly lng: Language) {}

  of(key: MessageKey, params?: Record<string, unknown>): string {
    const id = params ? `${key} ${JSON.stringify(params)}` : key;
    let text = this.known.get(id);
    if (text === undefined) {
      text = translate(this.lng, key, params);
      if (this.known.size < 1_000) this.known.set(id, text);
    }
    return text;
  }
}

/**
 * A refused import's report, written to Redis as its errors come (in row order) in the JSON of StoredReport, and the
 * answer that names the first of them; only those stay in memory.
 */
class Rejection {
  readonly id = randomUUID();
  private errorCount = 0;
  private badRows = 0;
  private lastRow = Number.NaN;
  private readonly shown: ImportRowError[] = [];
  private readonly key: string;
  private readonly opening: string;

  constructor(
    private readonly redis: RedisService,
    userId: number,
    kind: string,
  ) {
    this.key = redis.key('import-report', this.id);
    const empty: StoredReport = { userId, kind, errors: [] };
    this.opening = JSON.stringify(empty).slice(0, -2);
  }

  /** Adds errors that come after those added before. */
  async add(errors: ImportRowError[]): Promise<void> {
    if (errors.length === 0) return;
    for (const error of errors) {
      if (error.row !== this.lastRow) this.badRows++;
      this.lastRow = error.row;
      if (this.shown.length < IMPORT_ERRORS_SHOWN) this.shown.push(error);
    }
    const text = errors.map((e) => JSON.stringify(e)).join(',');
    if (this.errorCount === 0) await this.redis.client.set(this.key, this.opening + text, 'EX', REPORT_TTL_SECONDS);
    else await this.redis.client.append(this.key, `,${text}`);
    this.errorCount += errors.length;
  }

  /** Closes the report and answers 400 with the first errors and the report's id. */
  async finish(total: number): Promise<AppException> {
    if (this.errorCount === 0) await this.redis.client.set(this.key, this.opening, 'EX', REPORT_TTL_SECONDS);
    await this.redis.client.append(this.key, ']}');
    const { errorCount, badRows } = this;
    const data: ImportRejection = { total, errorCount, badRows, errors: this.shown, reportId: this.id };
    return AppException.badRequestWithData('importHasErrors', { badRows }, data);
  }
}

/** A column's bit in ReadRow's `bad` and `unrecorded` (a table has far fewer than 31 columns). */
function columnBit(table: ImportTable, key: string): number {
  const index = table.columns.findIndex((c) => c.key === key);
  return index < 0 ? 0 : 1 << index;
}

/** The header a sheet's rows were read by, and which file column holds each table column. */
interface SheetHeader {
  header: string[];
  columnIndex: Map<string, number>;
}

/** What the first reading of a sheet keeps. */
interface CheckedSheet extends SheetHeader {
  /** Every data row with a value, while none is bad; null once one is: the rows of a refused file are not kept. */
  rows: ReadRow[] | null;
  /** Data rows with a value. */
  total: number;
  /**
   * The row numbers that have each thing no two rows may share (a list once a second row has it): a key (duplicate
   * codes are refused), a yes in an `onlyOne` column.
   */
  rowsByKey: Map<string, number | number[]>;
}

/** What a row may share with no other row of its file: its key, a yes in each `onlyOne` column, the value of each `unique` one. */
function exclusivesOf(table: ImportTable, row: ReadRow): { id: string; column: string; reason: MessageKey }[] {
  const exclusives: { id: string; column: string; reason: MessageKey }[] = [];
  if (row.values[table.codeColumn])
    exclusives.push({ id: `key:${keyOf(table, row.values)}`, column: table.codeColumn, reason: 'importDuplicateCode' });
  for (const { key, onlyOne, unique } of table.columns) {
    if (onlyOne && row.values[key] === true) exclusives.push({ id: `one:${key}`, column: key, reason: onlyOne });
    const value = row.values[key];
    if (unique && value !== null && value !== '' && value !== undefined)
      exclusives.push({ id: `unique:${key}:${String(value)}`, column: key, reason: 'importDuplicateValue' });
  }
  return exclusives;
}

interface StoredCredentials {
  userId: number;
  family: DeviceFamily;
  /** The added devices' codes and credential generations as the import made them. */
  codes: string[];
  generations: number[];
}

interface StoredReport {
  userId: number;
  kind: string;
  errors: ImportRowError[];
}

/** The current credential generations of devices (or lamp gateways) by code, in code order. */
function generationRows(db: EntityManager, family: DeviceFamily, codes: string[]): Promise<{ code: string; generation: number }[]> {
  return family === DeviceFamily.LampGateway
    ? db.query(`SELECT code, mqtt_generation AS generation FROM lamp_gateway WHERE code = ANY($1::text[]) ORDER BY code`, [codes])
    : db.query(`SELECT code, mqtt_generation AS generation FROM device WHERE code = ANY($1::text[]) AND type = $2 ORDER BY code`, [
        codes,
        DEVICE_TYPE_OF_FAMILY[family],
      ]);
}

/** The generations the added devices were given, in the order of `codes`. */
async function generationsOf(db: EntityManager, family: DeviceFamily, codes: string[]): Promise<number[]> {
  const byCode = new Map((await generationRows(db, family, codes)).map((r) => [r.code, r.generation]));
  return codes.map((code) => byCode.get(code) ?? 0);
}

/** A cell's value as the text a user sees. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return cell.toISOString();
  return withoutNeutralisation(String(cell).trim());
}

/** Header text compared loosely: case, surrounding and repeated spaces do not matter. */
function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** A workbook of one sheet from rows of cells; text a spreadsheet program could take for a formula is neutralised. */
export function workbook(rows: unknown[][], sheetName: string): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows.map((row) => row.map(neutraliseCell))), sheetName);
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}

/**
 * Imports a spreadsheet into one of the import tables. Every row is read and checked before anything is written;
 * one bad row refuses the whole file and the answer names each bad cell. Rows match records on their code, so a
 * file imported twice changes nothing the second time. Writes are a few bulk statements in one transaction.
 */
@Injectable()
export class ImportService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly redis: RedisService,
    private readonly workbooks: WorkbookReader,
    private readonly credentials: DeviceCredentials,
  ) {}

  async importFile(table: ImportTable, upload: StoredUpload, caller: Caller, lng: Language): Promise<ImportResult> {
    const groupId = table.group ? readGroupId(upload.fields[IMPORT_GROUP_FIELD]) : null;
    const dryRun = readDryRun(upload.fields[IMPORT_DRY_RUN_FIELD]);
    if (table.group && groupId !== null) await table.group.check(this.db.manager, groupId);
    // The workbook is read (twice for a refused file) while the user's reading slot is held; the writes come after.
    const checked = await this.workbooks.withFirstSheet(caller.userId, upload.path, { timeoutMs: 60_000 }, async (firstSheet) => {
      const checked = await firstSheet((sheet) => this.check(table, sheet, lng));
      if (checked.total === 0) throw AppException.badRequest('importNoRows');
      if (!checked.rows) throw await firstSheet((sheet) => this.rejectFile(caller, table, sheet, checked, groupId, lng));
      return { ...checked, rows: checked.rows };
    });
    const { result, added, generations } = await this.writeRows(table, checked, groupId, dryRun, caller, lng);
    // The added devices' MQTT logins, to download once. Only the codes are kept: the passwords are derived again then.
    if (added.length > 0 && table.mqttFamily && this.credentials.available) {
      const credentialsId = randomUUID();
      const stored: StoredCredentials = { userId: caller.userId, family: table.mqttFamily, codes: added, generations };
      await this.redis.client.set(this.redis.key('import-credentials', credentialsId), JSON.stringify(stored), 'EX', REPORT_TTL_SECONDS);
      result.credentialsId = credentialsId;
    }
    return result;
  }

  /**
   * Classifies the rows of a file whose every row is good against the records and writes them in one transaction. The
   * first reading has already checked each row against its record; a record changed since then can still make a row
   * not fit it (half a position, a gateway nobody recorded) and refuse the file here.
   */
  private async writeRows(
    table: ImportTable,
    { rows, header, columnIndex }: SheetHeader & { rows: ReadRow[] },
    groupId: number | null,
    dryRun: boolean,
    caller: Caller,
    lng: Language,
  ): Promise<{ result: ImportResult; added: string[]; generations: number[] }> {
    let added: string[] = [];
    let generations: number[] = [];
    try {
      const result = await this.db.transaction(async (tx) => {
        // Imports of one kind take turns, so two of them never classify the same codes at once.
        await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`sc:import:${table.kind}`]);
        // Checked again, and kept from deletion until the rows are written.
        if (table.group && groupId !== null) await table.group.check(tx, groupId);
        const keys = [...new Set(rows.map((r) => keyOf(table, r.values)))];
        const existing = await table.load(tx, keys);
        const errors: ImportRowError[] = [];
        const { toAdd, toChange, unchanged } = classify(table, rows, existing, groupId, header, columnIndex, lng, errors);
        await addTaken(tx, table, rows, header, columnIndex, lng, errors);
        if (errors.length > 0) {
          const rejection = new Rejection(this.redis, caller.userId, table.kind);
          await rejection.add(errors.sort((a, b) => a.row - b.row));
          throw await rejection.finish(rows.length);
        }
        await lockGateways(tx, table, rows);
        const result: ImportResult = {
          kind: table.kind,
          dryRun,
          total: rows.length,
          added: toAdd.length,
          changed: toChange.length,
          unchanged,
          addedCodes: toAdd.slice(0, IMPORT_SAMPLE_CODES).map((r) => String(r.values[table.codeColumn])),
          changedCodes: toChange.slice(0, IMPORT_SAMPLE_CODES).map((r) => String(r.values[table.codeColumn])),
        };
        if (dryRun) return result;
        if (toAdd.length > 0) await table.insert(tx, toAdd, groupId);
        if (toChange.length > 0) await table.update(tx, toChange, groupId);
        added = toAdd.map((r) => String(r.values[table.codeColumn]));
        if (table.mqttFamily) generations = await generationsOf(tx, table.mqttFamily, added);
        return result;
      });
      return { result, added, generations };
    } catch (err) {
      // A record with one of the codes was added, or a region or pole the rows name was deleted, by someone else
      // between the check and the write.
      if (isUniqueViolation(err) || isForeignKeyViolation(err)) throw AppException.conflict('importConflict');
      throw err;
    }
  }

  /**
   * The MQTT logins of the devices an import added, as an xlsx: once (the download ends the offer), for the user who
   * imported them. Devices deleted or given new credentials since are left out: only logins the import issued, still
   * valid, are handed out (a generation is never used twice, so an equal generation is the same, untouched device).
   */
  async credentialsOf(caller: Caller, id: string, lng: Language): Promise<Buffer> {
    const key = this.redis.key('import-credentials', id);
    const text = /^[0-9a-f-]{36}$/.test(id) ? await this.redis.client.get(key) : null;
    const stored = text ? (JSON.parse(text) as StoredCredentials) : null;
    // Someone else's offer stays theirs; of two downloads at once, the one that takes the key gets the file.
    if (!stored || stored.userId !== caller.userId || (await this.redis.client.del(key)) !== 1) throw AppException.notFound('importCredentialsGone');
    const issued = new Map(stored.codes.map((code, i) => [code, stored.generations[i]]));
    const rows = (await generationRows(this.db.manager, stored.family, stored.codes)).filter((r) => issued.get(r.code) === r.generation);
    const header = (['code', 'username', 'password'] as const).map((k) => translateField(lng, k));
    const logins = rows.flatMap(({ code, generation }) => {
      const login = this.credentials.of(stored.family, code, generation);
      return login ? [[code, login.username, login.password]] : [];
    });
    return workbook([header, ...logins], 'mqtt');
  }

  /** The bad rows of a refused import as an xlsx, for the user who imported the file. */
  async report(caller: Caller, id: string, lng: Language): Promise<Buffer> {
    const text = /^[0-9a-f-]{36}$/.test(id) ? await this.redis.client.get(this.redis.key('import-report', id)) : null;
    const stored = text ? (JSON.parse(text) as StoredReport) : null;
    if (!stored || stored.userId !== caller.userId) throw AppException.notFound('importReportGone');
    const header = (['row', 'column', 'value', 'reason'] as const).map((k) => translateField(lng, k));
    return workbook([header, ...stored.errors.map((e) => [e.row, e.column, e.value, e.reason])], stored.kind);
  }

  /** The header row in the caller's language and one example row. */
  template(table: ImportTable, lng: Language): Buffer {
    return workbook([table.columns.map((c) => translateField(lng, c.key)), table.columns.map((c) => c.example)], table.kind);
  }

  /** Which file column holds each table column: a header may be the label in any of the four languages, or the field name. */
  private mapHeader(table: ImportTable, header: string[], lng: Language): Map<string, number> {
    const names = new Map<string, string>();
    for (const column of table.columns) {
      names.set(normalise(column.key), column.key);
      for (const catalogue of Object.values(CATALOGUES)) names.set(normalise(catalogue.fields[column.key]), column.key);
    }
    const index = new Map<string, number>();
    header.forEach((text, i) => {
      const key = names.get(normalise(text));
      if (key && !index.has(key)) index.set(key, i);
    });
    const missing = table.columns.filter((c) => c.required && !index.has(c.key)).map((c) => translateField(lng, c.key));
    if (missing.length > 0) throw AppException.badRequest('importMissingColumns', { columns: missing.join(', ') });
    return index;
  }

  /**
   * The first reading: every row is checked as the reader hands it over, against the records too, batch by batch, and
   * kept only while no row is bad; of a file with a bad row, only the row numbers of each key are kept (to name the
   * duplicates when the report is written), so a file that will be refused is never held whole.
   */
  private async check(table: ImportTable, sheet: SheetRows | null, lng: Language): Promise<CheckedSheet> {
    const rowsByKey = new Map<string, number | number[]>();
    const kept: { rows: ReadRow[] | null; total: number } = { rows: [], total: 0 };
    const read = await this.walk(table, sheet, lng, async (rows, errors, { header, columnIndex }) => {
      kept.total += rows.length;
      let bad = errors.length > 0;
      for (const row of rows) {
        for (const { id } of exclusivesOf(table, row)) {
          const seen = rowsByKey.get(id);
          if (seen === undefined) rowsByKey.set(id, row.rowNumber);
          else {
            bad = true;
            if (Array.isArray(seen)) seen.push(row.rowNumber);
            else rowsByKey.set(id, [seen, row.rowNumber]);
          }
        }
      }
      // Against the records only while the file is good: the second reading does it for a refused file.
      if (!bad && kept.rows) {
        const keys = keysDecidedByRecords(table, rows, columnIndex);
        const existing = keys.length > 0 ? await table.load(this.db.manager, keys) : new Map<string, ExistingRecord>();
        const check = recordCheck(table, header, columnIndex, lng);
        const misfits: ImportRowError[] = [];
        for (const row of rows) addMisfits(check, row, existing.get(keyOf(table, row.values)), misfits);
        await addTaken(this.db.manager, table, rows, header, columnIndex, lng, misfits);
        bad = misfits.length > 0;
      }
      if (bad) kept.rows = null;
      else if (kept.rows) for (const row of rows) kept.rows.push(row);
    });
    return { ...read, ...kept, rowsByKey };
  }

  /**
   * The second reading, of a refused file: each batch of rows is checked again, its duplicates named and its rows
   * classified against the records, and its errors are added to the report in Redis; only the errors shown in the
   * answer stay in memory.
   */
  private async rejectFile(
    caller: Caller,
    table: ImportTable,
    sheet: SheetRows | null,
    checked: CheckedSheet,
    groupId: number | null,
    lng: Language,
  ): Promise<AppException> {
    const rejection = new Rejection(this.redis, caller.userId, table.kind);
    const { header, columnIndex, rowsByKey } = checked;
    await this.walk(table, sheet, lng, async (rows, errors) => {
      for (const row of rows) {
        for (const { id, column, reason } of exclusivesOf(table, row)) {
          const same = rowsByKey.get(id);
          if (!Array.isArray(same)) continue;
          const value = row.values[column];
          errors.push({
            row: row.rowNumber,
            column: header[columnIndex.get(column) as number],
            value: typeof value === 'boolean' ? translate(lng, value ? 'yes' : 'no') : String(value),
            reason: translate(lng, reason, { rows: same.filter((n) => n !== row.rowNumber).join(', ') }),
          });
        }
      }
      const existing = await table.load(this.db.manager, [...new Set(rows.map((r) => keyOf(table, r.values)))]);
      classify(table, rows, existing, groupId, header, columnIndex, lng, errors);
      await addTaken(this.db.manager, table, rows, header, columnIndex, lng, errors);
      // Errors of a row in the order they were found: its cells, its code, then against its record.
      await rejection.add(errors.sort((a, b) => a.row - b.row));
    });
    return rejection.finish(checked.total);
  }

  /**
   * Reads the sheet's data rows batch by batch as the reader hands them over, checking each row as it comes and
   * handing `onBatch` the rows with a value and the errors of their cells: only the values of the table's columns are
   * read, never the sheet kept. The header is matched when the first data row comes, so a sheet without data rows is
   * refused as empty whatever its header says.
   */
  private async walk(
    table: ImportTable,
    sheet: SheetRows | null,
    lng: Language,
    onBatch: (rows: ReadRow[], errors: ImportRowError[], sheetHeader: SheetHeader) => Promise<void>,
  ): Promise<SheetHeader> {
    if (!sheet) throw AppException.badRequest('importNoRows');
    const { range } = sheet;
    const tooMany = () => AppException.badRequest('importTooManyRows', { max: IMPORT_MAX_ROWS });
    if (range && range.lastRow > range.firstRow && range.lastRow - 1 > IMPORT_MAX_ROWS) throw tooMany();
    let headerRowNumber = range?.firstRow;
    let header: string[] = [];
    let read: { columnIndex: Map<string, number>; regions: Map<string, number[]>; reasons: Reasons } | undefined;
    for await (const batch of sheet.batches) {
      const data: SheetRow[] = [];
      for (const row of batch) {
        headerRowNumber ??= row.number;
        if (row.number === headerRowNumber) header = Array.from(row.cells, (c) => (c === null || c === undefined ? '' : String(c)));
        else if (row.number > headerRowNumber && (!range || row.number <= range.lastRow)) data.push(row);
      }
      if (data.length === 0) continue;
      if (data[data.length - 1].number - 1 > IMPORT_MAX_ROWS) throw tooMany();
      if (!read) {
        const columnIndex = this.mapHeader(table, header, lng);
        const regionColumn = table.columns.some((c) => c.kind === 'region' && columnIndex.has(c.key));
        read = { columnIndex, regions: regionColumn ? await this.regionsByName() : new Map<string, number[]>(), reasons: new Reasons(lng) };
      }
      const errors: ImportRowError[] = [];
      const rows = await this.readRows(table, data, header, read, errors);
      if (rows.length > 0) await onBatch(rows, errors, { header, columnIndex: read.columnIndex });
    }
    if (!read) {
      // A sheet whose range has rows below the header, all of them without a cell, still has its header checked.
      if (range && headerRowNumber !== undefined && range.lastRow > headerRowNumber) this.mapHeader(table, header, lng);
      throw AppException.badRequest('importNoRows');
    }
    return { header, columnIndex: read.columnIndex };
  }

  /** Checks a batch of data rows; blank rows are skipped. */
  private async readRows(
    table: ImportTable,
    data: SheetRow[],
    header: string[],
    { columnIndex, regions, reasons }: { columnIndex: Map<string, number>; regions: Map<string, number[]>; reasons: Reasons },
    errors: ImportRowError[],
  ): Promise<ReadRow[]> {
    const present = table.columns.filter((c) => columnIndex.has(c.key));
    const codesIn = (kind: ReferenceKind) => {
      const column = present.find((c) => c.kind === kind || (kind === 'gateway' && c.kind === 'gatewayCode'));
      return column ? data.map((r) => cellText(r.cells[columnIndex.get(column.key) as number])) : [];
    };
    const refs: References = {
      pole: await this.idsByCode('pole', codesIn('pole')),
      gateway: await this.idsByCode('gateway', codesIn('gateway')),
      controller: await this.idsByCode('controller', codesIn('controller')),
    };
    const rows: ReadRow[] = [];
    for (const { number: rowNumber, cells } of data) {
      if (cells.every((c) => cellText(c) === '')) continue;
      const row: ReadRow = { rowNumber, values: {}, bad: 0, unrecorded: 0 };
      for (const column of present) {
        const raw = cells[columnIndex.get(column.key) as number];
        const text = cellText(raw);
        const fail = (key: MessageKey, params?: Record<string, unknown>) => {
          row.bad |= columnBit(table, column.key);
          errors.push({
            row: rowNumber,
            column: header[columnIndex.get(column.key) as number],
            value: text,
            reason: reasons.of(key, params),
          });
        };
        row.values[column.key] = readCell(column, raw, text, regions, refs, fail);
        if (column.kind === 'gatewayCode' && text !== '' && !refs.gateway.has(text)) row.unrecorded |= columnBit(table, column.key);
      }
      rows.push(row);
    }
    return rows;
  }

  /** Region ids by each of their names (name, Chinese and English), compared loosely. */
  private async regionsByName(): Promise<Map<string, number[]>> {
    const rows: { id: number; region_name: string; zh_cn: string; en_us: string }[] = await this.db.query(
      `SELECT id, region_name, zh_cn, en_us FROM region`,
    );
    const byName = new Map<string, number[]>();
    for (const r of rows) {
      for (const name of new Set([r.region_name, r.zh_cn, r.en_us].filter(Boolean).map(normalise))) {
        byName.set(name, [...(byName.get(name) ?? []), r.id]);
      }
    }
    return byName;
  }

  /** Ids of the lamp poles, lamp gateways or Wi-Fi access controllers a file names by code (a controller's serial number). */
  private async idsByCode(kind: ReferenceKind, codes: string[]): Promise<Map<string, number>> {
    const wanted = [...new Set(codes.filter(Boolean))];
    if (wanted.length === 0) return new Map();
    const rows: { id: number; code: string }[] =
      kind === 'gateway'
        ? await this.db.query(`SELECT id, code FROM lamp_gateway WHERE code = ANY($1::text[])`, [wanted])
        : await this.db.query(`SELECT id, code FROM device WHERE type = $1 AND code = ANY($2::text[])`, [DEVICE_TYPE_OF_REFERENCE[kind], wanted]);
    return new Map(rows.map((r) => [r.code, r.id]));
  }
}

/** The records a reference cell names, by code: their ids. */
type References = Record<ReferenceKind, Map<string, number>>;

/** The device type of the registry devices a reference cell names (gateways have a table of their own). */
const DEVICE_TYPE_OF_REFERENCE: Record<Exclude<ReferenceKind, 'gateway'>, DeviceType> = {
  pole: DeviceType.LampPole,
  controller: DeviceType.AccessController,
};

/** Why a reference cell naming nobody is refused. */
const UNKNOWN_REFERENCE: Record<ReferenceKind, MessageKey> = {
  pole: 'importPoleUnknown',
  gateway: 'importGatewayUnknown',
  controller: 'importAcUnknown',
};

/** Columns kept as text: empty is '', not null. */
function isTextual(column: ImportColumn): boolean {
  return column.kind === 'text' || column.kind === 'code' || column.kind === 'mac' || column.kind === 'gatewayCode';
}

/** What an empty cell of the column reads as (and a new record gets when the file has no such column). */
function emptyValue(column: ImportColumn): string | number | boolean | null {
  return column.empty ?? (isTextual(column) ? '' : null);
}

/** Yes and no as a boolean cell may say them: true / false, 1 / 0, and the words of the four languages. */
const YES_NO = new Map<string, boolean>([
  ['true', true],
  ['1', true],
  ['false', false],
  ['0', false],
  ...Object.values(CATALOGUES).flatMap((c): [string, boolean][] => [
    [normalise(c.messages.yes), true],
    [normalise(c.messages.no), false],
  ]),
]);

/** Reads one cell by its column's kind; a bad cell is reported through `fail` and reads as null. */
function readCell(
  column: ImportColumn,
  raw: unknown,
  text: string,
  regions: Map<string, number[]>,
  refs: References,
  fail: (key: MessageKey, params?: Record<string, unknown>) => void,
): string | number | boolean | null {
  if (text === '') {
    if (column.required) fail('pleaseEnter');
    return emptyValue(column);
  }
  switch (column.kind) {
    case 'text':
    case 'gatewayCode':
      if (column.max !== undefined && text.length > column.max) fail('tooLong', { max: column.max });
      else if (column.pattern && !column.pattern.test.test(text)) fail(column.pattern.reason);
      return text;
    case 'code':
      if (!DEVICE_CODE_PATTERN.test(text)) fail('clientIdInvalid');
      return text;
    case 'mac':
      if (!MAC_PATTERN.test(text)) fail('macInvalid');
      return text.toUpperCase();
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(text);
      if (!Number.isFinite(n)) {
        fail('importNotNumber');
        return null;
      }
      if (column.range && (n < column.range.min || n > column.range.max)) fail('outOfRange', column.range);
      else if (column.integer && !Number.isInteger(n)) fail('mustBeInteger');
      return n;
    }
    case 'boolean': {
      const yes = typeof raw === 'boolean' ? raw : YES_NO.get(normalise(text));
      if (yes === undefined) fail('importNotYesNo');
      return yes ?? null;
    }
    case 'region': {
      const ids = regions.get(normalise(text)) ?? [];
      if (ids.length === 0) fail('importRegionUnknown', { name: text });
      else if (ids.length > 1) fail('importRegionAmbiguous', { name: text });
      return ids.length === 1 ? ids[0] : null;
    }
    case 'pole':
    case 'gateway':
    case 'controller': {
      const id = refs[column.kind].get(text);
      if (id === undefined) fail(UNKNOWN_REFERENCE[column.kind], { code: text });
      return id ?? null;
    }
  }
}

/** The chosen group: decimal digits only ('1e3', '0x10', ' 7' are not ids); an id past PostgreSQL's int names no group. */
function readGroupId(field: string | undefined): number {
  const groupText = (field ?? '').trim();
  if (!/^[1-9]\d*$/.test(groupText)) throw AppException.field(IMPORT_GROUP_FIELD, 'selectGroup');
  const groupId = Number(groupText);
  if (groupId > INT_MAX) throw AppException.field(IMPORT_GROUP_FIELD, 'importGroupNotFound');
  return groupId;
}

/** The multipart dry-run flag: true/1 or false/0 (any case), or nothing for a real import; anything else is refused. */
function readDryRun(field: string | undefined): boolean {
  const flag = (field ?? '').trim().toLowerCase();
  if (flag === 'true' || flag === '1') return true;
  if (flag === 'false' || flag === '0' || flag === '') return false;
  throw AppException.field(IMPORT_DRY_RUN_FIELD, 'mustBeBoolean');
}

/**
 * Locks the recorded gateways the rows name by code against deletion until the rows are written; one deleted since the
 * file was read refuses the import (gateway codes are not foreign keys, so the database would not notice).
 */
async function lockGateways(tx: EntityManager, table: ImportTable, rows: ReadRow[]): Promise<void> {
  const columns = table.columns.filter((c) => c.kind === 'gatewayCode').map((c) => c.key);
  const named = rows.flatMap((r) => columns.filter((key) => !(r.unrecorded & columnBit(table, key))).map((key) => r.values[key]));
  const codes = [...new Set(named)].filter((v): v is string => typeof v === 'string' && v !== '');
  if (codes.length === 0) return;
  const recorded: unknown[] = await tx.query(`SELECT 1 FROM lamp_gateway WHERE code = ANY($1::text[]) FOR KEY SHARE`, [codes]);
  if (recorded.length < codes.length) throw AppException.conflict('importConflict');
}

/**
 * The keys of the rows whose record decides whether they fit it (addMisfits): a row naming a gateway nobody recorded
 * (its record may have that code), and every row when the file has one position column and leaves the other to the
 * records. The others are refused or not by their own values, whatever their record (a record has both coordinates or
 * neither: the database holds it to that).
 */
function keysDecidedByRecords(table: ImportTable, rows: ReadRow[], columnIndex: Map<string, number>): string[] {
  const halfPosition = table.columns.some((c) => c.key === 'latitude') && columnIndex.has('latitude') !== columnIndex.has('longitude');
  return [...new Set(rows.filter((row) => halfPosition || row.unrecorded !== 0).map((row) => keyOf(table, row.values)))];
}

/** What checking rows against their records needs: the table, a new record's values, and how to name a column. */
interface RecordCheck {
  table: ImportTable;
  /** What a new record gets for a column the file does not have. */
  defaults: RowValues;
  positioned: boolean;
  header: string[];
  columnIndex: Map<string, number>;
  lng: Language;
}

function recordCheck(table: ImportTable, header: string[], columnIndex: Map<string, number>, lng: Language): RecordCheck {
  const defaults: RowValues = Object.fromEntries(table.columns.map((c) => [c.key, emptyValue(c)]));
  return { table, defaults, positioned: table.columns.some((c) => c.key === 'latitude'), header, columnIndex, lng };
}

/** The row's value, or the record's (a new record's) for a column the file does not have. */
function valueIn(row: ReadRow, base: RowValues, key: string): string | number | boolean | null {
  return Object.hasOwn(row.values, key) ? row.values[key] : base[key];
}

/**
 * Adds the errors of a row that does not fit its record, or a new record: half a position, a gateway nobody recorded
 * that the record does not have. No merged copy of the row is made: a file of 100,000 rows is checked so.
 */
function addMisfits(check: RecordCheck, row: ReadRow, record: ExistingRecord | undefined, errors: ImportRowError[]): void {
  const { table, header, columnIndex, lng } = check;
  const base = record?.values ?? check.defaults;
  const valueOf = (key: string) => valueIn(row, base, key);
  const positionRead = !(row.bad & (columnBit(table, 'latitude') | columnBit(table, 'longitude')));
  if (check.positioned && positionRead && (valueOf('latitude') === null) !== (valueOf('longitude') === null)) {
    const missing = valueOf('latitude') === null ? 'latitude' : 'longitude';
    const at = columnIndex.get(missing);
    errors.push({
      row: row.rowNumber,
      column: at === undefined ? translateField(lng, missing) : header[at],
      value: '',
      reason: translate(lng, 'positionIncomplete'),
    });
  }
  if (row.unrecorded === 0) return;
  for (const { key } of table.columns.filter((c) => row.unrecorded & columnBit(table, c.key))) {
    if (valueOf(key) === record?.values[key]) continue;
    errors.push({
      row: row.rowNumber,
      column: header[columnIndex.get(key) as number],
      value: String(valueOf(key)),
      reason: translate(lng, 'importGatewayUnknown', { code: valueOf(key) }),
    });
  }
}

/**
 * Adds the errors of rows whose value of a `unique` column a record with another key has (an access point's MAC that
 * another access point has): one query per unique column of the file. A cell already refused is not looked up.
 */
async function addTaken(
  db: EntityManager,
  table: ImportTable,
  rows: ReadRow[],
  header: string[],
  columnIndex: Map<string, number>,
  lng: Language,
  errors: ImportRowError[],
): Promise<void> {
  for (const { key, unique } of table.columns) {
    const at = columnIndex.get(key);
    if (!unique || at === undefined || !table.holders) continue;
    const valueOf = (row: ReadRow) => (row.bad & columnBit(table, key) ? '' : String(row.values[key] ?? ''));
    const values = [...new Set(rows.map(valueOf))].filter((v) => v !== '');
    if (values.length === 0) continue;
    const holders = await table.holders(db, key, values);
    for (const row of rows) {
      const value = valueOf(row);
      const holder = value === '' ? undefined : holders.get(value);
      if (holder === undefined || holder === keyOf(table, row.values)) continue;
      errors.push({ row: row.rowNumber, column: header[at], value, reason: translate(lng, unique.taken, { [unique.param]: value }) });
    }
  }
}

/**
 * Splits the rows into records to add, records that change, and records the file leaves as they are. A column the
 * file does not have keeps the record's value (a new record gets what an empty cell reads as: the column's `empty`,
 * else empty text or no number). A record changes when a value differs or it is not yet in the chosen group. A row
 * that does not fit its record is an error (addMisfits).
 */
function classify(
  table: ImportTable,
  rows: ReadRow[],
  existing: Map<string, ExistingRecord>,
  groupId: number | null,
  header: string[],
  columnIndex: Map<string, number>,
  lng: Language,
  errors: ImportRowError[],
): { toAdd: RowToWrite[]; toChange: RowToWrite[]; unchanged: number } {
  const check = recordCheck(table, header, columnIndex, lng);
  const toAdd: RowToWrite[] = [];
  const toChange: RowToWrite[] = [];
  let unchanged = 0;
  for (const row of rows) {
    const record = existing.get(keyOf(table, row.values));
    addMisfits(check, row, record, errors);
    // Once a row is bad the file is refused: what it would have written no longer matters.
    if (errors.length > 0) continue;
    const base = record?.values ?? check.defaults;
    if (!record) toAdd.push({ values: { ...base, ...row.values } });
    else if (
      (groupId !== null && !record.groupIds.includes(groupId)) ||
      table.columns.some((c) => valueIn(row, base, c.key) !== record.values[c.key])
    )
      toChange.push({ id: record.id, values: { ...base, ...row.values } });
    else unchanged += 1;
  }
  return { toAdd, toChange, unchanged };
}
