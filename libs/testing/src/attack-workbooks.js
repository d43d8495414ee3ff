// Hostile workbooks, as an attacker would craft them: real xlsx zips whose sheet inflates to far more than the file,
// holds a million rows, or whose zip directory lies about its sizes. Plain CommonJS so the tests and the upload
// benchmark (bench/upload-attacks.bench.mjs) build the same files. See attack-workbooks.d.ts.
'use strict';
const { Readable } = require('node:stream');
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
const SHEET_HEAD = '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const SHEET_TAIL = '</sheetData></worksheet>';

/** An xlsx whose one sheet is the XML the generator yields (between the sheet's head and tail), deflated as it goes. */
function xlsxOf(sheetBody) {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from(CONTENT_TYPES), '[Content_Types].xml');
  zip.addBuffer(Buffer.from(ROOT_RELS), '_rels/.rels');
  zip.addBuffer(Buffer.from(WORKBOOK), 'xl/workbook.xml');
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), 'xl/_rels/workbook.xml.rels');
  const sheet = Readable.from(
    (function* () {
      yield Buffer.from(SHEET_HEAD);
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

module.exports = { zipBombWorkbook, manyRowsWorkbook, withLyingSizes };
