// The streamed reading of an xlsx gives the imports the same header and cells as SheetJS reading it whole did, and
// the preview the same sheets, row counts and headers as SheetJS reading one row of each sheet did.
import * as XLSX from '@e965/xlsx';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as yazl from 'yazl';
import { manyRowsWorkbook, workbookBuffer } from '@sc/testing';
import { SpreadsheetUnreadableError, readSpreadsheet } from './spreadsheet-reader';
import { previewOf } from './workbook-reader.service';
import { readFirstXlsxSheet, readXlsxSheetStarts, type CellValue } from './xlsx-sheet-stream';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

interface Parts {
  sheet: string;
  /** The second sheet's XML inside its worksheet element (a sheet of one cell without it). */
  other?: string;
  strings?: string;
  styles?: string;
  workbookPr?: string;
  prefix?: string;
}

/** An xlsx written by hand, as other spreadsheet programs write them (prefixed names, no dimension, rich text...). */
function handmade({ sheet, other, strings, styles, workbookPr = '', prefix = '' }: Parts): Promise<Buffer> {
  const p = prefix ? `${prefix}:` : '';
  const ns = prefix ? `xmlns:${prefix}="${NS}"` : `xmlns="${NS}"`;
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text), name);
  const type = (part: string, kind: string) =>
    `<Override PartName="/xl/${part}" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.${kind}+xml"/>`;
  add(
    '[Content_Types].xml',
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      type('workbook.xml', 'sheet.main') +
      type('worksheets/first.xml', 'worksheet') +
      type('worksheets/other.xml', 'worksheet') +
      (strings ? type('sharedStrings.xml', 'sharedStrings') : '') +
      (styles ? type('styles.xml', 'styles') : '') +
      '</Types>',
  );
  add(
    '_rels/.rels',
    `<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="/xl/workbook.xml"/></Relationships>`,
  );
  add(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<${p}workbook ${ns} xmlns:r="${REL}">${workbookPr}` +
      `<${p}sheets><${p}sheet name="Poles" sheetId="1" r:id="rId3"/><${p}sheet name="Other" sheetId="2" r:id="rId4"/></${p}sheets></${p}workbook>`,
  );
  add(
    'xl/_rels/workbook.xml.rels',
    `<Relationships xmlns="${PKG}"><Relationship Id="rId3" Type="${REL}/worksheet" Target="worksheets/first.xml"/>` +
      `<Relationship Id="rId4" Type="${REL}/worksheet" Target="worksheets/other.xml"/>` +
      (strings ? `<Relationship Id="rId5" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : '') +
      (styles ? `<Relationship Id="rId6" Type="${REL}/styles" Target="styles.xml"/>` : '') +
      `</Relationships>`,
  );
  add('xl/worksheets/first.xml', `<${p}worksheet ${ns}>${sheet}</${p}worksheet>`);
  add(
    'xl/worksheets/other.xml',
    `<${p}worksheet ${ns}>${other ?? `<${p}sheetData><${p}row r="1"><${p}c r="A1"><${p}v>7</${p}v></${p}c></${p}row></${p}sheetData>`}</${p}worksheet>`,
  );
  if (strings) add('xl/sharedStrings.xml', `<${p}sst ${ns}>${strings}</${p}sst>`);
  if (styles) add('xl/styles.xml', `<${p}styleSheet ${ns}>${styles}</${p}styleSheet>`);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

interface Seen {
  header: string[];
  headerRowNumber: number;
  rowCount: number;
  /** Data rows with a value, by row number. */
  rows: Record<number, CellValue[]>;
}

/** Cells as compared: empty is null, and nothing after the last value. */
function compact(cells: readonly unknown[]): CellValue[] {
  const out = Array.from(cells, (c) => (c === undefined ? null : c)) as CellValue[];
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return out;
}

const headerOf = (cells: readonly unknown[]) => compact(cells).map((c) => (c === null ? '' : String(c)));

/**
 * Without a dimension SheetJS starts its rows at the first column with a value, the streamed reader at column A (it
 * cannot know the first column before the end): columns empty in every row are left out of both before comparing.
 */
function withoutLeadingColumns(seen: Seen): Seen {
  const lists = [seen.header, ...Object.values(seen.rows)];
  const first = Math.min(...lists.map((cells) => cells.findIndex((c) => c !== null && c !== '')).filter((i) => i >= 0));
  const cut = <T>(cells: T[]) => cells.slice(first);
  return { ...seen, header: cut(seen.header), rows: Object.fromEntries(Object.entries(seen.rows).map(([n, cells]) => [n, cut(cells)])) };
}

async function wholeRead(path: string): Promise<Seen> {
  const [sheet] = await readSpreadsheet(path, { maxRows: 100_000, blankRows: true });
  const rows: Record<number, CellValue[]> = {};
  sheet.rows.forEach((cells, i) => {
    const kept = compact(cells);
    if (kept.length > 0) rows[sheet.headerRowNumber + 1 + i] = kept;
  });
  return { header: headerOf(sheet.header), headerRowNumber: sheet.headerRowNumber, rowCount: sheet.rowCount, rows };
}

async function streamedRead(path: string): Promise<Seen> {
  return readFirstXlsxSheet(path, { batchRows: 7 }, async (sheet) => {
    if (!sheet) throw new Error('no sheet');
    let headerRowNumber = sheet.range?.firstRow;
    let header: string[] = [];
    let last = 0;
    const rows: Record<number, CellValue[]> = {};
    for await (const batch of sheet.batches) {
      for (const row of batch) {
        headerRowNumber ??= row.number;
        last = Math.max(last, row.number);
        if (row.number === headerRowNumber) header = headerOf(row.cells);
        else if (row.number > headerRowNumber && (!sheet.range || row.number <= sheet.range.lastRow)) {
          const kept = compact(row.cells);
          if (kept.length > 0) rows[row.number] = kept;
        }
      }
    }
    return { header, headerRowNumber: headerRowNumber ?? 1, rowCount: sheet.range ? sheet.range.lastRow - 1 : last - 1, rows };
  });
}

/** A hand-written workbook's shared strings, styles and rows (from row 3, with dates, rich text, errors, formulas). */
const strings =
  '<si><t>Name</t></si><si><t xml:space="preserve"> Code </t></si>' +
  '<si><r><rPr><b/></rPr><t>Rich</t></r><r><t xml:space="preserve"> text</t></r><rPh sb="0" eb="1"><t>フリ</t></rPh></si>' +
  '<si><t>line_x000D_&#13;&#10;break &amp; &lt;more&gt;</t></si><si><t/></si><si><t>Installed</t></si>';
const styles =
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd hh:mm"/></numFmts>' +
  '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="14"/><xf numFmtId="2"/></cellXfs>';
const cells =
  '<row r="3"><c r="B3" t="s"><v>0</v></c><c r="C3" t="s"><v>1</v></c><c r="D3" t="s"><v>5</v></c><c r="E3" t="inlineStr"><is><t>Kind</t></is></c></row>' +
  '<row r="4"><c r="B4" t="s"><v>2</v></c><c r="C4" t="s"><v>3</v></c><c r="D4" s="1"><v>46000.25</v></c><c r="E4" t="b"><v>1</v></c></row>' +
  '<row r="5" spans="2:5"><c r="B5" t="str"><f>A1&amp;"x"</f><v>formula &amp; text</v></c><c r="C5" t="e"><v>#N/A</v></c><c r="D5" s="2"><v>60</v></c><c r="E5" s="3"><v>12.5</v></c></row>' +
  '<row r="7"><c r="B7" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r></is></c><c r="C7" t="s"><v>4</v></c><c r="D7" s="2"><v>59</v></c><c r="E7"><v></v></c></row>' +
  '<row><c r="B8"><f>1+1</f><v>2</v></c><c t="b"><v>0</v></c><c s="1"><v>1.5</v></c></row>' +
  '<row r="9"><c r="B9" t="d"><v>2026-11-25T10:00:00</v></c><c r="C9" t="d"><v>2026-11-25</v></c></row>' +
  '<row r="10"/>';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sc-xlsx-stream-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const saved = async (name: string, file: Buffer) => {
  const path = join(dir, name);
  await writeFile(path, file);
  return path;
};

describe('readFirstXlsxSheet', () => {
  const sheetjs = (rows: unknown[][], options: XLSX.WritingOptions = {}) => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Lamps');
    return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', ...options }) as Buffer;
  };
  const mixed = [
    ['Lamp name', 'Client ID', 'Longitude', 'Installed', 'Works', 'Note'],
    ['Lamp 1', 'L-1', 113.26, new Date(Date.UTC(2026, 10, 25, 8, 30)), true, '=not a formula'],
    [],
    ['  Lamp 3  ', 'L-3', -23.1291, null, false, 'two\nlines & <tags>'],
    ['Lamp 4', 4, '113.5', 'x', null, '灯杆 北'],
    [null, null, null, null, null, '   '],
    ['Lamp 6', 'L-6', 0, 45000.5, 1, "'=quoted"],
  ];

  it.each([
    ['SheetJS, inline strings', () => sheetjs(mixed)],
    ['SheetJS, shared strings', () => sheetjs(mixed, { bookSST: true })],
    ['SheetJS, as a test builds it', () => workbookBuffer(mixed)],
    ['many rows of numbers', () => manyRowsWorkbook(3_000, 3)],
  ])('reads %s as SheetJS does', async (_name, build) => {
    const path = await saved('book.xlsx', await build());
    const streamed = await streamedRead(path);
    expect(streamed).toEqual(await wholeRead(path));
    expect(Object.keys(streamed.rows).length).toBeGreaterThan(3);
  });

  it.each([
    ['without a dimension', { sheet: `<sheetData>${cells}</sheetData>`, strings, styles }],
    ['with a dimension', { sheet: `<dimension ref="B3:E10"/><sheetData>${cells}</sheetData>`, strings, styles }],
    ['with a narrower dimension', { sheet: `<dimension ref="B3:D8"/><sheetData>${cells}</sheetData>`, strings, styles }],
    ['with prefixed names', { sheet: `<x:sheetData>${cells.replace(/<(\/?)(\w)/g, '<$1x:$2')}</x:sheetData>`, strings, styles, prefix: 'x' }],
    ['in the 1904 date system', { sheet: `<sheetData>${cells}</sheetData>`, strings, styles, workbookPr: '<workbookPr date1904="1"/>' }],
    ['without styles', { sheet: `<sheetData>${cells}</sheetData>`, strings }],
  ])('reads a workbook written by hand %s as SheetJS does', async (_name, parts: Parts) => {
    if (parts.prefix) parts.strings = parts.strings!.replace(/<(\/?)(\w)/g, `<$1${parts.prefix}:$2`).replace(/x:xml:space/g, 'xml:space');
    const path = await saved('hand.xlsx', await handmade(parts));
    const streamed = withoutLeadingColumns(await streamedRead(path));
    expect(streamed).toEqual(withoutLeadingColumns(await wholeRead(path)));
    expect(streamed.rows[4]?.[0]).toBe('Rich text');
  });

  it('refuses a sheet that names a shared string the workbook does not have, and XML that is not well formed', async () => {
    const missing = await saved(
      'missing.xlsx',
      await handmade({ sheet: '<sheetData><row r="1"><c r="A1" t="s"><v>9</v></c></row></sheetData>', strings }),
    );
    await expect(streamedRead(missing)).rejects.toBeInstanceOf(SpreadsheetUnreadableError);
    const broken = await saved('broken.xlsx', await handmade({ sheet: '<sheetData><row r="1"><c r="A1"><v>1</v></row></sheetData>' }));
    await expect(streamedRead(broken)).rejects.toBeInstanceOf(SpreadsheetUnreadableError);
  });
});

describe('readXlsxSheetStarts, as files/inspect previews a workbook', () => {
  /** The preview as SheetJS read it: one row of each sheet, in a worker thread (as an xls still is). */
  const sheetjsPreview = async (path: string) =>
    (await readSpreadsheet(path, { maxRows: 0 })).map(({ name, rowCount, header }) => ({ name, rowCount, header }));
  const streamedPreview = async (path: string) => (await readXlsxSheetStarts(path, { lastRow: 1 })).map(previewOf);

  const sheetjsBook = (sheets: [string, XLSX.WorkSheet][], options: XLSX.WritingOptions = {}) => {
    const book = XLSX.utils.book_new();
    for (const [name, sheet] of sheets) XLSX.utils.book_append_sheet(book, sheet, name);
    return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', ...options }) as Buffer;
  };
  const lamps = [
    ['Lamp name', 'Client ID', null, 'Installed', true, 12.5],
    ['Lamp 1', 'L-1', 113.26, new Date(Date.UTC(2026, 10, 25, 8, 30)), true, 'x'],
    ['Lamp 2', 'L-2', 0, null, false, ''],
  ];
  const sheets = (): [string, XLSX.WorkSheet][] => [
    ['Lamps', XLSX.utils.aoa_to_sheet(lamps, { cellDates: true })],
    ['Empty', XLSX.utils.aoa_to_sheet([])],
    ['Header only', XLSX.utils.aoa_to_sheet([['Name', null, 'Code']])],
    ['From B3', XLSX.utils.sheet_add_aoa(XLSX.utils.aoa_to_sheet([]), lamps, { origin: 'B3' })],
    [
      'Date header',
      XLSX.utils.aoa_to_sheet(
        [
          [new Date(Date.UTC(2026, 0, 2)), 'Name'],
          [1, 2],
        ],
        { cellDates: true },
      ),
    ],
  ];
  /** Row 1 of a hand-written sheet: a shared string in B, a date in C, yes in E. */
  const row1 = '<row r="1"><c r="B1" t="s"><v>0</v></c><c r="C1" s="1"><v>46000.25</v></c><c r="E1" t="b"><v>1</v></c></row>';

  it.each([
    ['SheetJS, several sheets, inline strings', () => sheetjsBook(sheets())],
    ['SheetJS, several sheets, shared strings', () => sheetjsBook(sheets(), { bookSST: true })],
    [
      'a test workbook',
      () =>
        workbookBuffer([
          ['Name', 'Code'],
          ['Pole 1', 'P-1'],
        ]),
    ],
    ['rows without a dimension (no row count)', () => manyRowsWorkbook(3_000, 3)],
    ['by hand, no first row', () => handmade({ sheet: `<sheetData>${cells}</sheetData>`, strings, styles })],
    ['by hand, no first row, a dimension', () => handmade({ sheet: `<dimension ref="B3:E10"/><sheetData>${cells}</sheetData>`, strings, styles })],
    ['by hand, a first row, no dimension', () => handmade({ sheet: `<sheetData>${row1}${cells}</sheetData>`, strings, styles })],
    ['by hand, a wider dimension', () => handmade({ sheet: `<dimension ref="A1:G10"/><sheetData>${row1}${cells}</sheetData>`, strings, styles })],
    ['by hand, a narrower dimension', () => handmade({ sheet: `<dimension ref="A1:C10"/><sheetData>${row1}${cells}</sheetData>`, strings, styles })],
    [
      'by hand, a dimension right of the first row',
      () => handmade({ sheet: `<dimension ref="D1:G10"/><sheetData>${row1}</sheetData>`, strings, styles }),
    ],
    ['by hand, one row, a wider dimension', () => handmade({ sheet: `<dimension ref="A1:G1"/><sheetData>${row1}</sheetData>`, strings, styles })],
    [
      'by hand, a first row of errors only',
      () =>
        handmade({
          sheet: `<dimension ref="A1:C4"/><sheetData><row r="1"><c r="A1" t="e"><v>#N/A</v></c><c r="B1"/></row>${cells}</sheetData>`,
          strings,
        }),
    ],
    [
      'by hand, rows without numbers, prefixed names',
      () =>
        handmade({
          sheet:
            '<x:sheetData><x:row><x:c t="s"><x:v>1</x:v></x:c><x:c t="inlineStr"><x:is><x:t>Kind</x:t></x:is></x:c></x:row><x:row><x:c><x:v>1</x:v></x:c></x:row></x:sheetData>',
          other: '<x:dimension ref="A1:A1"/><x:sheetData/>',
          strings: strings.replace(/<(\/?)(\w)/g, '<$1x:$2').replace(/x:xml:space/g, 'xml:space'),
          prefix: 'x',
        }),
    ],
  ])('previews %s as SheetJS did', async (_name, build) => {
    const path = await saved('book.xlsx', await build());
    expect(await streamedPreview(path)).toEqual(await sheetjsPreview(path));
  });

  // Rows and shared strings enough that what is broken comes far past the first chunks the reader inflates.
  const dataRows = (count: number) =>
    Array.from(
      { length: count },
      (_, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>${i + 2}</v></c><c r="B${i + 2}"><v>${i}</v></c></row>`,
    ).join('');
  const dataStrings = (count: number) =>
    Array.from({ length: count + 2 }, (_, i) => `<si><t>${i < 2 ? ['Name', 'Code'][i] : `Pole ${i}`}</t></si>`).join('');
  const header = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>';
  const preview = [
    { name: 'Poles', rowCount: 20_001, header: ['Name', 'Code'] },
    { name: 'Other', rowCount: 0, header: ['7'] },
  ];

  it('reads a sheet no further than its first row: later rows that are not well formed or name no string do not matter', async () => {
    const path = await saved(
      'later-rows.xlsx',
      await handmade({
        sheet:
          `<dimension ref="A1:B20002"/><sheetData>${header}${dataRows(19_999)}` +
          '<row r="20001"><c r="A20001" t="s"><v>99999</v></c></row><row r="20002"><c r="A20002"><v>1</v></row></sheetData>',
        strings: dataStrings(20_000),
      }),
    );
    expect(await streamedPreview(path)).toEqual(preview);
    // An import reads every row, and refuses the file.
    await expect(streamedRead(path)).rejects.toBeInstanceOf(SpreadsheetUnreadableError);
  });

  it('reads the shared strings no further than the last one the first rows name', async () => {
    const path = await saved(
      'later-strings.xlsx',
      await handmade({
        sheet: `<dimension ref="A1:B20002"/><sheetData>${header}${dataRows(20_000)}</sheetData>`,
        strings: `${dataStrings(20_000)}<si><t>not well formed</si>`,
      }),
    );
    expect(await streamedPreview(path)).toEqual(preview);
    await expect(streamedRead(path)).rejects.toBeInstanceOf(SpreadsheetUnreadableError);
  });

  it('refuses a first row that names a shared string the workbook does not have', async () => {
    const missing = await saved(
      'missing.xlsx',
      await handmade({ sheet: `<sheetData><row r="1"><c r="A1" t="s"><v>9</v></c></row></sheetData>`, strings }),
    );
    await expect(streamedPreview(missing)).rejects.toBeInstanceOf(SpreadsheetUnreadableError);
  });
});
