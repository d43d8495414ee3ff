/** An xlsx whose sheet inflates to `megabytes` MiB (a zip bomb). */
export function zipBombWorkbook(megabytes: number): Promise<Buffer>;
/** An xlsx with `rows` rows of `cellsPerRow` (default 1) small numbers each. */
export function manyRowsWorkbook(rows: number, cellsPerRow?: number): Promise<Buffer>;
/** The zip with every entry's declared uncompressed size replaced by `declared` bytes. */
export function withLyingSizes(zip: Buffer, declared?: number): Buffer;
