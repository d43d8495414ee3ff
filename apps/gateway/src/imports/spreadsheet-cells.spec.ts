import * as XLSX from '@e965/xlsx';
import { workbook } from './import.service';
import { neutraliseCell, withoutNeutralisation } from './spreadsheet-cells';

describe('spreadsheet cells', () => {
  it.each(['=1+2', '=HYPERLINK("http://example.test","x")', '+SUM(A1)', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '-'])(
    'neutralises %j and gives it back unchanged on import',
    (text) => {
      const written = neutraliseCell(text);
      expect(written).toBe(`'${text}`);
      expect(withoutNeutralisation(written as string)).toBe(text);
    },
  );

  it.each(['Jinfeng East Road 12', '-23.1291', '+8.5', '12', "'quoted", 'a=b'])('writes %j as it is', (text) => {
    expect(neutraliseCell(text)).toBe(text);
    expect(withoutNeutralisation(text)).toBe(text);
  });

  it('leaves numbers, dates, booleans and empty cells alone', () => {
    const date = new Date('2026-11-25T00:00:00Z');
    expect([-5, 0, date, true, null, undefined].map(neutraliseCell)).toEqual([-5, 0, date, true, null, undefined]);
  });

  it('writes no formula into an export, whatever the record holds', () => {
    const book = XLSX.read(
      workbook(
        [
          ['name', 'value'],
          ['=cmd|" /C calc"!A0', -5],
          ['@SUM(1+1)*cmd', '-23.1291'],
        ],
        'lamps',
      ),
      { cellFormula: true },
    );
    const sheet = book.Sheets.lamps;
    const cells = Object.entries(sheet).filter(([key]) => !key.startsWith('!'));
    expect(cells.filter(([, cell]) => (cell as XLSX.CellObject).f !== undefined)).toEqual([]);
    expect(sheet.A2.v).toBe(`'=cmd|" /C calc"!A0`);
    expect(sheet.B2.v).toBe(-5);
    expect(sheet.A3.v).toBe(`'@SUM(1+1)*cmd`);
    expect(sheet.B3.v).toBe('-23.1291');
  });
});
