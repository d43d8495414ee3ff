import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { promisify } from 'node:util';
import * as XLSX from '@e965/xlsx';
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import * as yauzl from 'yauzl';
import { SpreadsheetUnreadableError } from './spreadsheet-reader';

/**
 * The first sheet of an xlsx read as a stream: its XML is inflated and parsed chunk by chunk and handed on in batches
 * of rows, so memory holds the shared strings, the number formats and one batch, never the whole sheet. Cells read as
 * SheetJS reads them for the imports (`dense`, `cellDates`, then `sheet_to_json` with `header: 1`): text, numbers,
 * booleans, Dates for numbers in a date format (local time, as SheetJS gives them), null for errors and empty cells.
 */

export type CellValue = string | number | boolean | Date | null;

export interface SheetRow {
  /** The row number a spreadsheet program shows. */
  number: number;
  /** The cells by column from the first column of the sheet's range (missing cells are holes). */
  cells: CellValue[];
}

/** A sheet read row by row; shared by xlsx (streamed) and xls (parsed whole, it is small). */
export interface SheetRows {
  name: string;
  /** The rows the sheet says it spans (1-based, inclusive), when it says: rows outside it are not part of the sheet. */
  range?: { firstRow: number; lastRow: number };
  /** Every row element of the sheet in file order, in batches. */
  batches: AsyncIterable<SheetRow[]>;
}

export interface StreamOptions {
  /**
   * Rows per batch (200). Small batches keep few objects alive while the next ones are read: each object still alive
   * when the young generation is collected counts towards growing it, and the gateway lets it grow to 64 MB.
   */
  batchRows?: number;
  /** Time the parser may spend on the sheet. */
  timeoutMs?: number;
  /**
   * The last row number to read. Rows come in ascending order, so the sheet is read no further than the chunk in which
   * a later row starts: what comes after it is never inflated or parsed. Every row without it.
   */
  lastRow?: number;
}

/** The first rows of a sheet, as far as `lastRow` (StreamOptions), for a preview. */
export interface SheetStart {
  name: string;
  /** The cells the sheet says it spans (its dimension), 0-based as SheetJS decodes it, when it says. */
  dimension?: XLSX.Range;
  /** The rows numbered up to `lastRow`, their cells by column from column A, whatever the dimension says. */
  rows: SheetRow[];
}

type Parser = SaxesParser<{ xmlns: false; position: false }>;
const newParser = (): Parser => new SaxesParser({ xmlns: false, position: false });

const openZip = promisify<string, yauzl.Options, yauzl.ZipFile>(yauzl.open);
const DAY_MS = 24 * 60 * 60 * 1000;
/** Day 0 of Excel's 1900 date system, counted from 1899-12-30 (day 60 is the 29 February 1900 it believes in). */
const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const BUILTIN_FORMATS = XLSX.SSF.get_table() as Record<number, string>;

/** The name without its namespace prefix (`x:row` is a row). */
const local = (name: string): string => name.slice(name.indexOf(':') + 1);

/** An attribute by its local name, whatever its prefix (`r:id`). */
function attribute(tag: SaxesTagPlain, name: string): string | undefined {
  for (const [key, value] of Object.entries(tag.attributes)) if (local(key) === name) return value;
  return undefined;
}

/** Text as a workbook escapes it: `_x000D_` is a character code; CR LF is a line break. */
function workbookText(text: string): string {
  return text.replace(/_x([\da-fA-F]{4})_/g, (_, code: string) => String.fromCharCode(parseInt(code, 16))).replace(/\r\n/g, '\n');
}

/** The wall-clock time of a UTC moment as a local Date (SheetJS hands dates out in local time). */
function asLocal(utc: Date): Date {
  return new Date(
    utc.getUTCFullYear(),
    utc.getUTCMonth(),
    utc.getUTCDate(),
    utc.getUTCHours(),
    utc.getUTCMinutes(),
    utc.getUTCSeconds(),
    utc.getUTCMilliseconds(),
  );
}

/** A date serial as a Date; day 60, which does not exist, stays a number. */
function serialDate(serial: number): Date | number {
  if (serial >= 60 && serial < 61) return serial;
  return asLocal(new Date((serial > 60 ? serial : serial + 1) * DAY_MS + EXCEL_EPOCH_MS));
}

/** An ISO 8601 date cell (`t="d"`); a time without a zone is UTC. */
function isoDate(text: string): Date {
  const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(text) || !/^\d{4}-\d\d-\d\d/.test(text);
  return asLocal(new Date(zoned ? text : /T/.test(text) ? `${text}Z` : `${text}T00:00:00Z`));
}

/** The 0-based column of a cell reference (`AB12` is 27), or -1 without letters. */
function columnOf(ref: string): number {
  let index = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i) - 64;
    if (code < 1 || code > 26) break;
    index = index * 26 + code;
  }
  return index - 1;
}

class Zip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
  ) {}

  static async open(path: string): Promise<Zip> {
    const zip = await openZip(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: false });
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      zip.on('end', resolve);
      zip.on('entry', (entry: yauzl.Entry) => {
        entries.set(entry.fileName.toLowerCase(), entry);
        zip.readEntry();
      });
      zip.readEntry();
    });
    return new Zip(zip, entries);
  }

  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) throw new SpreadsheetUnreadableError(`no ${name} in the workbook`);
    return promisify(this.zip.openReadStream.bind(this.zip))(entry) as Promise<Readable>;
  }

  close(): void {
    this.zip.close();
  }
}

/** Feeds an entry's XML to a parser, yielding after each chunk; `spent` counts the time the parser took. */
async function* feed(zip: Zip, name: string, parser: Parser, spent: { ms: number; limit: number }): AsyncGenerator<void> {
  const stream = await zip.stream(name);
  const decoder = new StringDecoder('utf8');
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const started = performance.now();
      let text = decoder.write(chunk);
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
      parser.write(text);
      spent.ms += performance.now() - started;
      if (spent.ms > spent.limit) throw new SpreadsheetUnreadableError(`no result within ${spent.limit} ms`);
      yield;
    }
    parser.write(decoder.end());
    parser.close();
  } finally {
    stream.destroy();
  }
}

/** Parses an entry with the handlers given: a whole (small) one, or until `done` says after a chunk. */
async function parseEntry(
  zip: Zip,
  name: string,
  spent: { ms: number; limit: number },
  handlers: { open?: (tag: SaxesTagPlain) => void; close?: (tag: SaxesTagPlain) => void; text?: (text: string) => void },
  done: () => boolean = () => false,
): Promise<void> {
  const parser = newParser();
  if (handlers.open) parser.on('opentag', handlers.open);
  if (handlers.close) parser.on('closetag', handlers.close);
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  for await (const _ of feed(zip, name, parser, spent)) {
    void _;
    if (done()) return;
  }
}

interface Relationship {
  target: string;
  type: string;
}

/** The relationships of a part, by id, with their targets resolved against the part's folder. */
async function relationships(zip: Zip, part: string, spent: { ms: number; limit: number }): Promise<Map<string, Relationship>> {
  const dir = posix.dirname(part);
  const rels = posix.join(dir === '.' ? '' : dir, '_rels', `${posix.basename(part)}.rels`);
  const found = new Map<string, Relationship>();
  if (!zip.has(rels)) return found;
  await parseEntry(zip, rels, spent, {
    open: (tag) => {
      if (local(tag.name) !== 'Relationship') return;
      const target = attribute(tag, 'Target') ?? '';
      const resolved = target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(dir === '.' ? '' : dir, target));
      found.set(attribute(tag, 'Id') ?? '', { target: resolved, type: attribute(tag, 'Type') ?? '' });
    },
  });
  return found;
}

const ofType = (rels: Map<string, Relationship>, type: string) => [...rels.values()].find((r) => r.type.endsWith(`/${type}`))?.target;

/** Which cell styles show a number as a date. */
async function dateStyles(zip: Zip, path: string | undefined, spent: { ms: number; limit: number }): Promise<boolean[] | null> {
  if (!path || !zip.has(path)) return null;
  const formats = new Map<number, string>();
  const styleFormats: (number | undefined)[] = [];
  let inCellXfs = false;
  let sawCellXfs = false;
  await parseEntry(zip, path, spent, {
    open: (tag) => {
      const name = local(tag.name);
      if (name === 'numFmt') {
        const id = parseInt(attribute(tag, 'numFmtId') ?? '', 10);
        if (id > 0) formats.set(id, attribute(tag, 'formatCode') ?? '');
      } else if (name === 'cellXfs') {
        inCellXfs = true;
        sawCellXfs = true;
      } else if (name === 'xf' && inCellXfs) {
        const id = attribute(tag, 'numFmtId');
        styleFormats.push(id ? parseInt(id, 10) : undefined);
      }
    },
    close: (tag) => {
      if (local(tag.name) === 'cellXfs') inCellXfs = false;
    },
  });
  if (!sawCellXfs) return null;
  return styleFormats.map((id) => {
    const format = id === undefined ? undefined : (formats.get(id) ?? BUILTIN_FORMATS[id]);
    return format !== undefined && XLSX.SSF.is_date(format);
  });
}

/** Shared strings by index: the string, or undefined for an index the table does not have. */
interface StringTable {
  get(index: number): string | undefined;
}

const RECENT_STRINGS = 1024;

/**
 * The shared strings of a workbook, kept as UTF-8 in one growing buffer outside the JavaScript heap, and made into a
 * string when a cell names one. A sheet of 100,000 rows can have 200,000 of them: as strings, each would be an object
 * the garbage collector copies and promotes, and it grows the young generation for good while doing so.
 */
export class SharedStrings implements StringTable {
  private bytes = Buffer.alloc(64 * 1024);
  private used = 0;
  private ends = new Uint32Array(1024);
  private count = 0;
  // The strings read last, by index modulo their number: a column that repeats a region or a gateway code on many
  // rows (one shared string) gets one string for all of them.
  private readonly recent: (string | undefined)[] = new Array<string | undefined>(RECENT_STRINGS);
  private readonly recentIndex = new Int32Array(RECENT_STRINGS).fill(-1);

  add(text: string): void {
    const length = Buffer.byteLength(text);
    if (this.used + length > this.bytes.length) {
      const bytes = Buffer.alloc(Math.max(this.bytes.length * 2, this.used + length));
      this.bytes.copy(bytes, 0, 0, this.used);
      this.bytes = bytes;
    }
    this.used += this.bytes.write(text, this.used);
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.ends[this.count++] = this.used;
  }

  /** The string at `index`, or undefined past the last one. */
  get(index: number): string | undefined {
    if (!(index >= 0 && index < this.count)) return undefined;
    const slot = index % RECENT_STRINGS;
    if (this.recentIndex[slot] === index) return this.recent[slot];
    const text = this.bytes.toString('utf8', index === 0 ? 0 : this.ends[index - 1], this.ends[index]);
    this.recent[slot] = text;
    this.recentIndex[slot] = index;
    return text;
  }
}

/**
 * Each shared string in turn, by its index: its text runs joined, phonetic runs left out. The table is read until
 * `use` answers false (to the end of the chunk being parsed).
 */
async function eachSharedString(
  zip: Zip,
  path: string | undefined,
  spent: { ms: number; limit: number },
  use: (index: number, text: string) => boolean,
): Promise<void> {
  if (!path || !zip.has(path)) return;
  let text: string[] | null = null;
  let inText = false;
  let phonetic = 0;
  let index = 0;
  let more = true;
  await parseEntry(
    zip,
    path,
    spent,
    {
      open: (tag) => {
        const name = local(tag.name);
        if (name === 'si') text = [];
        else if (name === 'rPh') phonetic++;
        else if (name === 't' && phonetic === 0) inText = true;
      },
      close: (tag) => {
        const name = local(tag.name);
        if (name === 'si' && text) {
          if (more) more = use(index++, workbookText(text.join('')));
          text = null;
        } else if (name === 'rPh') phonetic--;
        else if (name === 't') inText = false;
      },
      text: (chunk) => {
        if (inText && text) text.push(chunk);
      },
    },
    () => !more,
  );
}

/** All the shared strings, for reading every row. */
async function sharedStrings(zip: Zip, path: string | undefined, spent: { ms: number; limit: number }): Promise<SharedStrings> {
  const strings = new SharedStrings();
  await eachSharedString(zip, path, spent, (_, text) => {
    strings.add(text);
    return true;
  });
  return strings;
}

/** Only the shared strings at the indexes `wanted`: the table is read as far as the last of them, and no further. */
async function someSharedStrings(
  zip: Zip,
  path: string | undefined,
  spent: { ms: number; limit: number },
  wanted: ReadonlySet<number>,
): Promise<Map<number, string>> {
  const strings = new Map<number, string>();
  let last = -1;
  for (const index of wanted) if (Number.isInteger(index) && index > last) last = index;
  if (last < 0) return strings;
  await eachSharedString(zip, path, spent, (index, text) => {
    if (wanted.has(index)) strings.set(index, text);
    return index < last;
  });
  return strings;
}

/** Where the workbook's parts are: its sheets in order with their names, its shared strings and its styles. */
async function workbookParts(zip: Zip, spent: { ms: number; limit: number }) {
  const root = await relationships(zip, '', spent);
  const book = ofType(root, 'officeDocument') ?? 'xl/workbook.xml';
  const sheets: { name: string; id: string }[] = [];
  let date1904 = false;
  await parseEntry(zip, book, spent, {
    open: (tag) => {
      const name = local(tag.name);
      if (name === 'sheet') sheets.push({ name: attribute(tag, 'name') ?? '', id: attribute(tag, 'id') ?? '' });
      else if (name === 'workbookPr') date1904 = ['1', 'true'].includes(attribute(tag, 'date1904') ?? '');
    },
  });
  const rels = await relationships(zip, book, spent);
  return {
    sheets: sheets.map(({ name, id }) => ({ name, part: rels.get(id)?.target })),
    date1904,
    strings: ofType(rels, 'sharedStrings'),
    styles: ofType(rels, 'styles'),
  };
}

interface OpenWorkbook {
  zip: Zip;
  parts: Awaited<ReturnType<typeof workbookParts>>;
  dates: boolean[] | null;
}

const unreadable = (err: unknown) => (err instanceof SpreadsheetUnreadableError ? err : new SpreadsheetUnreadableError(String(err)));

/**
 * Opens an xlsx, reads where its parts are and its styles, and hands them to `use`; the file is closed when `use` is
 * done. What cannot be read rejects with SpreadsheetUnreadableError; what `use` throws is passed on as it is.
 */
async function withWorkbook<T>(path: string, spent: { ms: number; limit: number }, use: (book: OpenWorkbook) => Promise<T>): Promise<T> {
  let zip: Zip;
  try {
    zip = await Zip.open(path);
  } catch (err) {
    throw unreadable(err);
  }
  try {
    let book: OpenWorkbook;
    try {
      const parts = await workbookParts(zip, spent);
      book = { zip, parts, dates: await dateStyles(zip, parts.styles, spent) };
    } catch (err) {
      throw unreadable(err);
    }
    return await use(book);
  } finally {
    zip.close();
  }
}

/**
 * Opens an xlsx, reads its shared strings and styles, and hands its first sheet to `consume` as a stream of rows.
 * Anything in the workbook that cannot be read rejects with SpreadsheetUnreadableError; what `consume` throws is
 * passed on as it is. The file is closed when `consume` is done.
 */
export async function readFirstXlsxSheet<T>(path: string, options: StreamOptions, consume: (sheet: SheetRows | null) => Promise<T>): Promise<T> {
  const { batchRows = 200, timeoutMs = 60_000, lastRow = Infinity } = options;
  const spent = { ms: 0, limit: timeoutMs };
  return withWorkbook(path, spent, async ({ zip, parts, dates }) => {
    const [first] = parts.sheets;
    let strings: SharedStrings;
    try {
      strings = await sharedStrings(zip, parts.strings, spent);
      if (first?.part && !zip.has(first.part)) throw new SpreadsheetUnreadableError(`no ${first.part} in the workbook`);
    } catch (err) {
      throw unreadable(err);
    }
    if (!first?.part) return consume(null);
    const found: SheetFound = {};
    const rows = sheetRows(zip, first.part, found, { strings, dates, date1904: parts.date1904, batchRows, spent, lastRow, allColumns: false });
    // The range is given before the rows: the first batch is read ahead so that it is known.
    const ahead = await rows.next();
    const batches = (async function* () {
      if (!ahead.done) yield ahead.value;
      yield* rows;
    })();
    return consume({ name: first.name, range: found.range, batches });
  });
}

/**
 * The first rows of every sheet of an xlsx, as far as row `lastRow`, for a preview. Each sheet is read no further than
 * the chunk in which a later row starts, and the shared strings only as far as the last one those rows name: each
 * sheet's start is read twice, once to learn which strings it names and once with them. Rows past `lastRow` are never
 * parsed, so they may be as long or as broken as they like.
 */
export async function readXlsxSheetStarts(path: string, options: { lastRow: number; timeoutMs?: number }): Promise<SheetStart[]> {
  const { lastRow, timeoutMs = 20_000 } = options;
  const spent = { ms: 0, limit: timeoutMs };
  return withWorkbook(path, spent, async ({ zip, parts, dates }) => {
    const starts = async (strings: StringTable): Promise<SheetStart[]> => {
      const read: SheetStart[] = [];
      for (const { name, part } of parts.sheets) {
        if (!part || !zip.has(part)) throw new SpreadsheetUnreadableError(`no worksheet for ${name} in the workbook`);
        const found: SheetFound = {};
        const rows: SheetRow[] = [];
        const context = { strings, dates, date1904: parts.date1904, batchRows: 200, spent, lastRow, allColumns: true };
        for await (const batch of sheetRows(zip, part, found, context)) rows.push(...batch);
        read.push({ name, dimension: found.dimension, rows });
      }
      return read;
    };
    const named = new Set<number>();
    await starts({
      get: (index) => {
        named.add(index);
        return '';
      },
    });
    let strings: Map<number, string>;
    try {
      strings = await someSharedStrings(zip, parts.strings, spent, named);
    } catch (err) {
      throw unreadable(err);
    }
    return starts(strings);
  });
}

interface SheetContext {
  strings: StringTable;
  dates: boolean[] | null;
  date1904: boolean;
  batchRows: number;
  spent: { ms: number; limit: number };
  /** The last row number read (StreamOptions). */
  lastRow: number;
  /** Cells by column from column A, those outside the dimension too, rather than from the dimension's first column. */
  allColumns: boolean;
}

/** What a sheet says of itself before its rows: the rows it spans and its dimension. */
interface SheetFound {
  range?: SheetRows['range'];
  dimension?: XLSX.Range;
}

/**
 * The sheet's rows in batches, up to `lastRow`; sets `found` from the sheet's dimension when it gives one before its
 * rows. The reading ends with the sheet's rows: what follows them is not parsed.
 */
async function* sheetRows(zip: Zip, part: string, found: SheetFound, context: SheetContext): AsyncGenerator<SheetRow[]> {
  const { strings, dates, date1904, batchRows, spent, lastRow, allColumns } = context;
  const parser = newParser();
  let firstColumn = 0;
  let lastColumn = Infinity;
  let inData = false;
  let sawData = false;
  /** Past the last row to read, or past the sheet's rows. */
  let ended = false;
  let batch: SheetRow[] = [];
  let row: SheetRow | null = null;
  let rowNumber = 0;
  let column = -1;
  // The cell being read.
  let cell: { column: number; type: string | undefined; style: number | undefined } | null = null;
  let value: string[] | null = null;
  let inValue = false;
  let inline: string[] | null = null;
  let inInlineText = false;
  let phonetic = 0;

  const cellValue = (): CellValue | undefined => {
    const { type, style } = cell!;
    const v = value === null ? undefined : value.join('');
    const given = v === '' ? undefined : v;
    if (type === undefined && given === undefined) return undefined;
    switch (type ?? 'n') {
      case 'n': {
        if (given === undefined) return undefined;
        const n = parseFloat(given);
        if (dates && style !== undefined && dates[style]) return serialDate(n + (date1904 ? 1462 : 0));
        return n;
      }
      case 's': {
        if (given === undefined) return undefined;
        const text = strings.get(parseInt(given, 10));
        if (text === undefined) throw new SpreadsheetUnreadableError(`shared string ${given} missing`);
        return text;
      }
      case 'str':
        return given === undefined ? '' : workbookText(given);
      case 'inlineStr':
        return inline === null ? '' : workbookText(inline.join(''));
      case 'b':
        return given === '1' || given === 'true';
      case 'e':
        return null;
      case 'd':
        return given === undefined ? undefined : isoDate(given);
      default:
        throw new SpreadsheetUnreadableError(`unknown cell type ${type}`);
    }
  };

  parser.on('opentag', (tag) => {
    switch (local(tag.name)) {
      case 'dimension': {
        const ref = attribute(tag, 'ref') ?? '';
        if (sawData || !/^\w*:\w*$/.test(ref)) return;
        const range = XLSX.utils.decode_range(ref);
        if (range.s.r <= range.e.r && range.s.c <= range.e.c && range.s.r >= 0 && range.s.c >= 0) {
          found.range = { firstRow: range.s.r + 1, lastRow: range.e.r + 1 };
          found.dimension = range;
          if (!allColumns) {
            firstColumn = range.s.c;
            lastColumn = range.e.c;
          }
        }
        return;
      }
      case 'sheetData':
        inData = true;
        sawData = true;
        return;
      case 'row': {
        if (!inData || ended) return;
        const r = attribute(tag, 'r');
        rowNumber = r === undefined ? rowNumber + 1 : parseInt(r, 10);
        if (rowNumber > lastRow) {
          ended = true;
          return;
        }
        row = { number: rowNumber, cells: [] };
        column = -1;
        return;
      }
      case 'c': {
        if (!row) return;
        const ref = attribute(tag, 'r');
        column = ref === undefined ? column + 1 : columnOf(ref);
        const style = attribute(tag, 's');
        cell = { column, type: attribute(tag, 't'), style: style === undefined ? undefined : parseInt(style, 10) };
        value = null;
        inline = null;
        return;
      }
      case 'v':
        if (cell) {
          inValue = true;
          value ??= [];
        }
        return;
      case 'is':
        if (cell) inline = [];
        return;
      case 'rPh':
        phonetic++;
        return;
      case 't':
        if (inline && phonetic === 0) inInlineText = true;
        return;
    }
  });
  parser.on('closetag', (tag) => {
    switch (local(tag.name)) {
      case 'sheetData':
        inData = false;
        ended = true;
        return;
      case 'row':
        if (row) batch.push(row);
        row = null;
        return;
      case 'c': {
        if (!cell || !row) return;
        const read = cellValue();
        if (read !== undefined && cell.column >= firstColumn && cell.column <= lastColumn) row.cells[cell.column - firstColumn] = read;
        cell = null;
        return;
      }
      case 'v':
        inValue = false;
        return;
      case 'rPh':
        phonetic--;
        return;
      case 't':
        inInlineText = false;
        return;
    }
  });
  const onText = (text: string) => {
    if (inValue && value) value.push(text);
    else if (inInlineText && inline) inline.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  try {
    for await (const _ of feed(zip, part, parser, spent)) {
      void _;
      if (batch.length >= batchRows) {
        const full = batch;
        batch = [];
        yield full;
      }
      if (ended) break;
    }
  } catch (err) {
    throw err instanceof SpreadsheetUnreadableError ? err : new SpreadsheetUnreadableError(String(err));
  }
  if (batch.length > 0) yield batch;
}
