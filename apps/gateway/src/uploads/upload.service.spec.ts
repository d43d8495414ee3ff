import { workbookBuffer } from '@sc/testing';
import { SPREADSHEET_RULE, sniffSpreadsheet } from './upload.service';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]);
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00, 0x00]);

describe('sniffSpreadsheet', () => {
  it('recognises real workbooks by their first bytes', () => {
    expect(sniffSpreadsheet(workbookBuffer([['a', 'b']], 'xlsx').subarray(0, 16), '.xlsx')).toBe('xlsx');
    expect(sniffSpreadsheet(workbookBuffer([['a', 'b']], 'xls').subarray(0, 16), '.xls')).toBe('xls');
  });

  it('answers xlsx for a zip container named .xlsx and xls for an OLE2 container named .xls', () => {
    expect(sniffSpreadsheet(ZIP, '.xlsx')).toBe('xlsx');
    expect(sniffSpreadsheet(OLE2, '.xls')).toBe('xls');
  });

  it('refuses content that does not match the extension', () => {
    expect(sniffSpreadsheet(ZIP, '.xls')).toBeNull();
    expect(sniffSpreadsheet(OLE2, '.xlsx')).toBeNull();
  });

  it('refuses other extensions whatever the content', () => {
    for (const ext of ['.csv', '.zip', '.docx', '', '.XLSX', 'xlsx']) expect(sniffSpreadsheet(ZIP, ext)).toBeNull();
    expect(sniffSpreadsheet(OLE2, '.doc')).toBeNull();
  });

  it('refuses text, empty, truncated and near-miss headers', () => {
    expect(sniffSpreadsheet(Buffer.from('Name,Code\nPole,1\n'), '.xlsx')).toBeNull();
    expect(sniffSpreadsheet(Buffer.alloc(0), '.xlsx')).toBeNull();
    expect(sniffSpreadsheet(Buffer.alloc(0), '.xls')).toBeNull();
    expect(sniffSpreadsheet(ZIP.subarray(0, 3), '.xlsx')).toBeNull();
    expect(sniffSpreadsheet(OLE2.subarray(0, 7), '.xls')).toBeNull();
    // An empty zip archive ("PK\x05\x06") is no workbook.
    expect(sniffSpreadsheet(Buffer.from([0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0]), '.xlsx')).toBeNull();
  });

  it('is the check of the spreadsheet upload rule: xlsx and xls, at most 5 MB', () => {
    expect(SPREADSHEET_RULE.maxBytes).toBe(5 * 1024 * 1024);
    expect(SPREADSHEET_RULE.extensions).toEqual(['.xlsx', '.xls']);
    expect(SPREADSHEET_RULE.tooLargeKey).toBe('fileTooLarge5mb');
    expect(SPREADSHEET_RULE.wrongTypeKey).toBe('onlyXlsx');
    expect(SPREADSHEET_RULE.sniff(ZIP, '.xlsx')).toBe(true);
    expect(SPREADSHEET_RULE.sniff(ZIP, '.xls')).toBe(false);
  });
});
