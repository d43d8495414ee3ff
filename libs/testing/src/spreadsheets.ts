import * as XLSX from '@e965/xlsx';

/** Builds a workbook in memory, as a user's spreadsheet program would save it. */
export function workbookBuffer(rows: unknown[][], format: 'xlsx' | 'xls' = 'xlsx', sheetName = 'Sheet1'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), sheetName);
  return XLSX.write(book, { type: 'buffer', bookType: format === 'xlsx' ? 'xlsx' : 'biff8' }) as Buffer;
}
