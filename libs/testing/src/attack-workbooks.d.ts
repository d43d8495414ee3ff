/** An xlsx whose sheet inflates to `megabytes` MiB (a zip bomb). */
export function zipBombWorkbook(megabytes: number): Promise<Buffer>;
/** An xlsx with `rows` rows of `cellsPerRow` (default 1) small numbers each. */
export function manyRowsWorkbook(rows: number, cellsPerRow?: number): Promise<Buffer>;
/** An xlsx with a header row (Name, Code), then `rows` rows of a text of about `textLength` characters and a number. */
export function longTextWorkbook(rows: number, textLength: number): Promise<Buffer>;
/** An xls of 34,000 rows of three texts found nowhere else (Name, Code, Note): 5 MB, about the largest the upload limit lets through. */
/** The rows of largestXlsWorkbook (its sheet is named Poles). */
export function largestXlsRows(): string[][];
export function largestXlsWorkbook(): Buffer;
/** The zip with every entry's declared uncompressed size replaced by `declared` bytes. */
export function withLyingSizes(zip: Buffer, declared?: number): Buffer;
