export type SpreadsheetFormat = 'xlsx' | 'xls';

export interface SpreadsheetInspection {
  fileName: string;
  format: SpreadsheetFormat;
  sizeBytes: number;
  sheets: { name: string; rows: number; header: string[] }[];
}

/** Upload form field names. */
export const UPLOAD_FIELD = 'file';
