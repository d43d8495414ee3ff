// Hostile workbooks, as an attacker would craft them: real xlsx zips whose sheet inflates to far more than the file,
// holds a million rows, or whose zip directory lies about its sizes. Plain CommonJS so the tests and the upload
// benchmark (bench/upload-attacks.bench.mjs) build the same files. See attack-workbooks.d.ts.
'use strict';
const { Readable } = require('node:stream');
const XLSX = require('@e965/xlsx');
const yazl = require('yazl');

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const ROOT_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ' +
  'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';
const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
const SHEET_TAIL = '</sheetData></worksheet>';

/**
 * An xlsx whose one sheet is the XML the generator yields (its rows), deflated as it goes; with `dimension`, the sheet
 * says which cells it spans, as spreadsheet programs write it.
 */
function xlsxOf(sheetBody, dimension) {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml');
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
  zip.addBuffer(Buffer.from(WORKBOOK), 'xl/workbook.xml');
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels');
  const sheet = Readable.from(
    (function* () {
      yield Buffer.from(`${SHEET_HEAD}${dimension ? `<dimension ref="${dimension}"/>` : ''}<sheetData>`);
      yield* sheetBody();
      yield Buffer.from(SHEET_TAIL);
    })(),
  );
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', { compressionLevel: 9 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks = [];
    zip.outputStream.on('data', (c) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** One row with a cell, then `megabytes` MiB of blanks: a zip bomb, about a thousand times its size. */
function zipBombWorkbook(megabytes) {
  const blanks = Buffer.alloc(1024 * 1024, 0x20);
  return xlsxOf(function* () {
    yield Buffer.from('<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c></row>');
    for (let i = 0; i < megabytes; i++) yield blanks;
  });
}

/**
 * `rows` rows of one small number each: highly repetitive, so a million of them fit in a few megabytes. With
 * `cellsPerRow` above 1, each row holds that many cells of differing numbers (a wide sheet that compresses about 70 to 1, as dense numeric sheets do).
 */
function manyRowsWorkbook(rows, cellsPerRow = 1) {
  const rowXml = (r) => {
    if (cellsPerRow === 1) return `<row r="${r}"><c r="A${r}"><v>1</v></c></row>`;
    let cells = '';
    for (let c = 0; c < cellsPerRow; c++) cells += `<c><v>${(r * 7919 + c * 104729) % 997}</v></c>`;
    return `<row r="${r}">${cells}</row>`;
  };
  return xlsxOf(function* () {
    const batch = Math.max(1, Math.floor(10_000 / cellsPerRow));
    for (let start = 1; start <= rows; start += batch) {
      let xml = '';
      for (let r = start; r < Math.min(rows + 1, start + batch); r++) xml += rowXml(r);
      yield Buffer.from(xml);
    }
  });
}

/**
 * A header row (Name, Code), then `rows` rows of a text of about `textLength` characters and a number: words drawn from
 * a small vocabulary, so the sheet deflates about 40 to 1. 90,000 rows of 600 characters are a file of 1.7 MB within
 * every bound whose sheet inflates to 63 MB.
 */
function longTextWorkbook(rows, textLength) {
  let seed = 1;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const words = Array.from({ length: 16 }, () => (next() % 1e9).toString(36));
  const text = () => {
    let t = '';
    while (t.length < textLength) t += `${words[next() % words.length]} `;
    return t;
  };
  return xlsxOf(
    function* () {
      yield Buffer.from('<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Code</t></is></c></row>');
      for (let r = 2; r <= rows + 1; r++)
        yield Buffer.from(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>${text()}</t></is></c><c r="B${r}"><v>${r}</v></c></row>`);
    },
    `A1:B${rows + 1}`,
  );
}

/** The rows of largestXlsWorkbook: a header and 34,000 rows of three texts found nowhere else. */
function largestXlsRows() {
  let seed = 7;
  const text = (length) => {
    let t = '';
    while (t.length < length) t += (seed = (seed * 1103515245 + 12345) & 0x7fffffff).toString(36);
    return t.slice(0, length);
  };
  return [['Name', 'Code', 'Note'], ...Array.from({ length: 34_000 }, (_, i) => [`Pole ${text(16)}`, `P-${i}-${text(8)}`, text(16)])];
}

/**
 * An xls of 34,000 rows of three texts found nowhere else (Name, Code, Note): 5 MB, about the largest the upload limit
 * lets through, every text in the shared strings a reader holds whole.
 */
function largestXlsWorkbook() {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(largestXlsRows()), 'Poles');
  return XLSX.write(book, { type: 'buffer', bookType: 'biff8' });
}

/**
 * The same file, but its zip directory (local headers and central directory) says every entry inflates to `declared`
 * bytes: a parser that trusts the directory allocates too little, one that checks only the directory lets it through.
 */
function withLyingSizes(zip, declared = 100) {
  const out = Buffer.from(zip);
  for (let i = 0; i + 4 <= out.length; i++) {
    const signature = out.readUInt32LE(i);
    if (signature === 0x04034b50 && out.readUInt32LE(i + 22) > declared) out.writeUInt32LE(declared, i + 22);
    else if (signature === 0x02014b50 && out.readUInt32LE(i + 24) > declared) out.writeUInt32LE(declared, i + 24);
  }
  return out;
}

module.exports = { zipBombWorkbook, manyRowsWorkbook, longTextWorkbook, largestXlsRows, largestXlsWorkbook, withLyingSizes };
