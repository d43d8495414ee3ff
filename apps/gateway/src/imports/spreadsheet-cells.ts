/**
 * Spreadsheet cells written by the console (exports, error reports, templates) and read back by its imports.
 *
 * A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to a spreadsheet program
 * once the workbook is saved as CSV or the cell is edited (OWASP "CSV injection"): such text is written with a
 * leading apostrophe, which spreadsheet programs show as text. Imports take that apostrophe off again, so a value
 * exported and imported back is unchanged. Numbers, dates and booleans are written as they are, and so is text that
 * is a plain number (a negative latitude such as `-23.1291`), which no program runs.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

const needsNeutralising = (text: string): boolean => FORMULA_START.test(text) && !PLAIN_NUMBER.test(text);

/** The cell as it may be written to a workbook: formula-like text neutralised. */
export function neutraliseCell(cell: unknown): unknown {
  return typeof cell === 'string' && needsNeutralising(cell) ? `'${cell}` : cell;
}

/** The text of an imported cell without the apostrophe that an export put before formula-like text. */
export function withoutNeutralisation(text: string): string {
  return text.startsWith("'") && needsNeutralising(text.slice(1)) ? text.slice(1) : text;
}
