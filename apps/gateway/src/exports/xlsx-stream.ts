import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { neutraliseCell } from '../imports/spreadsheet-cells';

/**
 * A one-sheet xlsx written as a stream: the sheet's XML is made a batch of rows at a time while the zip is deflated
 * and sent, so a list of any length costs the memory of one batch. SheetJS (which writes the small workbooks: templates,
 * error reports) builds the whole workbook in memory before writing a byte, and its stream writers make CSV, HTML or
 * the old SpreadsheetML, not xlsx; yazl writes the zip, with data descriptors, as the sheet's XML comes.
 *
 * Cells are written as spreadsheet programs and SheetJS read them back: text inline (`inlineStr`, no shared-string
 * table to hold), numbers as numbers, booleans as booleans, null / undefined / '' as no cell. Text that a program
 * could take for a formula is neutralised (spreadsheet-cells.ts). A cell carries its reference only after an empty
 * one (the format lets a reader place it next to the one before): a list's XML is half the size, and so is the time
 * spent deflating it.
 */

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A sheet holds at most this many rows (Excel's limit), the header included. */
export const XLSX_MAX_ROWS = 1_048_576;

/**
 * XML text: the entities, and what XML 1.0 cannot hold (or a parser would change: a carriage return) written as
 * OOXML's `_xHHHH_`, a literal `_x0041_` escaped so that it stays as it is.
 */
export function xmlText(text: string): string {
  // Most cells (names, codes, addresses) need none of it.
  if (!NEEDS_ESCAPING.test(text)) return text;
  return (
    text
      .replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1')
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 cannot hold are what is matched
      .replace(/[\u0000-\u0008\u000B-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, (c) =>
        c.length === 1 && c.charCodeAt(0) < 0xd800 ? `_x${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}_` : '\uFFFD',
      )
      .replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'))
  );
}
// eslint-disable-next-line no-control-regex -- as above
const NEEDS_ESCAPING = /[&<>"_\u0000-\u0008\u000B-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** The column's letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Text a reader could trim or fold unless told to keep its spaces. */
const SPACES_TO_KEEP = /^\s|\s$|[\t\n]/;

/**
 * A cell, or '' for none. `ref` is its reference, given only when the cell does not follow the one written before it
 * (readers place a cell without one just after the one before): most cells of a list carry no reference, which keeps
 * the sheet's XML, and the time to deflate it, small.
 */
function cellXml(value: unknown, ref: string): string {
  if (value === null || value === undefined || value === '') return '';
  const r = ref ? ` r="${ref}"` : '';
  if (typeof value === 'number') return Number.isFinite(value) ? `<c${r}><v>${value}</v></c>` : '';
  if (typeof value === 'boolean') return `<c${r} t="b"><v>${value ? 1 : 0}</v></c>`;
  const text = value instanceof Date ? value.toISOString() : String(neutraliseCell(String(value)));
  const space = SPACES_TO_KEEP.test(text) ? ' xml:space="preserve"' : '';
  return `<c${r} t="inlineStr"><is><t${space}>${xmlText(text)}</t></is></c>`;
}

/** A row; `letters` are the columns' names (the header's, worked out once). */
function rowXml(number: number, cells: readonly unknown[], letters: readonly string[]): string {
  let xml = `<row r="${number}">`;
  let follows = true;
  for (let i = 0; i < cells.length; i++) {
    const cell = cellXml(cells[i], follows ? '' : `${letters[i] ?? columnName(i)}${number}`);
    xml += cell;
    follows = cell !== '';
  }
  return `${xml}</row>`;
}

/** Sheet names: at most 31 characters, none of `[]:*?/\`. */
function sheetNameOf(name: string): string {
  return name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'Sheet1';
}

function packageParts(sheetName: string): [string, string][] {
  return [
    [
      '[Content_Types].xml',
      `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
        `<Default Extension="xml" ContentType="application/xml"/>` +
        `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
        `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
        `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
        `</Types>`,
    ],
    [
      '_rels/.rels',
      `<Relationships xmlns="${PACKAGE_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>` +
        `<sheet name="${xmlText(sheetNameOf(sheetName))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="${PACKAGE_REL_NS}">` +
        `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      'xl/styles.xml',
      `<styleSheet xmlns="${MAIN_NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
        `<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
        `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
        `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
        `<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`,
    ],
  ].map(([name, xml]) => [name, XML_HEAD + xml]);
}

/** The sheet's XML: the header row (its columns as wide as their labels), then each batch of rows as it comes. */
async function* sheetXml(header: readonly string[], batches: AsyncIterable<readonly (readonly unknown[])[]>): AsyncGenerator<string> {
  const widths = header.map(
    (label, i) => `<col min="${i + 1}" max="${i + 1}" width="${Math.min(60, Math.max(12, label.length + 4))}" customWidth="1"/>`,
  );
  const letters = header.map((_, i) => columnName(i));
  yield `${XML_HEAD}<worksheet xmlns="${MAIN_NS}"><cols>${widths.join('')}</cols><sheetData>${rowXml(1, header, letters)}`;
  let number = 1;
  for await (const batch of batches) {
    let xml = '';
    for (const row of batch) {
      if (number >= XLSX_MAX_ROWS) break;
      xml += rowXml(++number, row, letters);
    }
    // An empty chunk would read as the end of a byte stream.
    if (xml) yield xml;
  }
  yield '</sheetData></worksheet>';
}

/**
 * The workbook as a readable stream of xlsx bytes. `batches` are read only as fast as the stream is consumed; an error
 * of theirs destroys the stream (a download cut short, never a file that looks whole), and a stream destroyed by its
 * reader (a client gone) stops reading them.
 */
export function xlsxStream(sheetName: string, header: readonly string[], batches: AsyncIterable<readonly (readonly unknown[])[]>): Readable {
  const zip = new ZipFile();
  for (const [name, xml] of packageParts(sheetName)) zip.addBuffer(Buffer.from(xml), name);
  const sheet = Readable.from(sheetXml(header, batches), { objectMode: false });
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml');
  zip.end();
  const out = zip.outputStream as Readable;
  sheet.once('error', (err) => out.destroy(err));
  zip.once('error', (err: Error) => out.destroy(err));
  out.once('close', () => sheet.destroy());
  return out;
}
