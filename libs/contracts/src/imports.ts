import type { PageQuery } from './envelope';

/** What an import, a template or an export is about: its call names are `${kind}Import`, `${kind}Template`, `${kind}Export`. */
export type ImportKind = 'light' | 'gateway' | 'loop' | 'lamp' | 'terminal' | 'radar' | 'ac' | 'ap' | 'column';

/**
 * What the downloaded files of a kind are called, by what they hold (the call names follow the spec: `lamp` is the
 * lamp pole import): `${name}-template.xlsx` and `${plural}.xlsx`.
 */
export const IMPORT_FILE_NAMES: Readonly<Record<ImportKind, { name: string; plural: string }>> = {
  light: { name: 'lamp', plural: 'lamps' },
  gateway: { name: 'gateway', plural: 'gateways' },
  loop: { name: 'loop', plural: 'loops' },
  lamp: { name: 'lamp-pole', plural: 'lamp-poles' },
  terminal: { name: 'broadcast-terminal', plural: 'broadcast-terminals' },
  radar: { name: 'radar', plural: 'radars' },
  ac: { name: 'wifi-access-controller', plural: 'wifi-access-controllers' },
  ap: { name: 'wifi-access-point', plural: 'wifi-access-points' },
  column: { name: 'alarm-column', plural: 'alarm-columns' },
};

/**
 * What a list export is about: every import kind, and the lists that are exported only (LED screens, floor-screen
 * plays, Wi-Fi client sessions, Wi-Fi clients per region, the alarm columns' calls). Its call is `${kind}Export`.
 */
export type ExportKind = ImportKind | 'led' | 'play' | 'terminalHistory' | 'regionClients' | 'call' | 'camera';

/** What an export's file is called (`${name}.xlsx`). */
export const EXPORT_FILE_NAMES: Readonly<Record<ExportKind, string>> = {
  light: IMPORT_FILE_NAMES.light.plural,
  gateway: IMPORT_FILE_NAMES.gateway.plural,
  loop: IMPORT_FILE_NAMES.loop.plural,
  lamp: IMPORT_FILE_NAMES.lamp.plural,
  terminal: IMPORT_FILE_NAMES.terminal.plural,
  radar: IMPORT_FILE_NAMES.radar.plural,
  ac: IMPORT_FILE_NAMES.ac.plural,
  ap: IMPORT_FILE_NAMES.ap.plural,
  led: 'led-screens',
  play: 'floor-screen-plays',
  terminalHistory: 'wifi-sessions',
  regionClients: 'wifi-clients-by-region',
  column: IMPORT_FILE_NAMES.column.plural,
  call: 'alarm-calls',
  camera: 'video-equipment',
};

/** The form fields sent with the file to an import call (besides `file`). */
export const IMPORT_GROUP_FIELD = 'groupId';
export const IMPORT_DRY_RUN_FIELD = 'dryRun';

/** At most this many data rows per file (a 5 MB workbook holds about 60,000 lamp rows). */
export const IMPORT_MAX_ROWS = 100_000;
/**
 * At most this many data rows in an xls file (the legacy format, read whole by SheetJS: about 0.5 kB of memory per
 * cell, so 5,000 rows of the lamp pole columns take a reading about 55 MB); a longer list is imported as an xlsx.
 */
export const XLS_IMPORT_MAX_ROWS = 5_000;
/** An answer lists at most this many bad rows; the downloadable report has every one. */
export const IMPORT_ERRORS_SHOWN = 1_000;
/** Added and changed codes an answer names, as a sample. */
export const IMPORT_SAMPLE_CODES = 20;

/** One bad cell (or row) of an imported file. */
export interface ImportRowError {
  /** The row number as the spreadsheet program shows it (the header is row 1 of a sheet that starts at A1). */
  row: number;
  /** The column's header as it is in the file (or its label in the caller's language when the column is missing). */
  column: string;
  /** The cell's value as text. */
  value: string;
  /** Why, in the caller's language. */
  reason: string;
}

/** Data of a refused import (HTTP 400): nothing was written. */
export interface ImportRejection {
  total: number;
  /** How many bad cells; `errors` lists the first IMPORT_ERRORS_SHOWN. */
  errorCount: number;
  /** How many rows have at least one bad cell. */
  badRows: number;
  errors: ImportRowError[];
  /** GET /api/imports/report?id= answers every error as an xlsx, for an hour, to the same user. */
  reportId: string;
}

/** Answer of a successful import, or of a dry run (`dryRun: true`: what would happen, nothing written). */
export interface ImportResult {
  kind: ImportKind;
  dryRun: boolean;
  /** Data rows read. */
  total: number;
  added: number;
  changed: number;
  unchanged: number;
  /** The first codes that are (or would be) added and changed. */
  addedCodes: string[];
  changedCodes: string[];
  /**
   * GET /api/imports/credentials?id= answers the MQTT logins of the added devices as an xlsx: once, within an hour, to
   * the user who imported them (docs/security.md). Absent for a preview, for records without a login (loops) and
   * when the installation has no credential secret.
   */
  credentialsId?: string;
}

/** GET /api/imports/uploadTarget: the port of the upload application, on the console's own host name. */
export interface UploadTarget {
  port: number;
}

/** The lamp list's filters, for its export (GET /api/light/lightExport). */
export interface LightExportQuery {
  lampName?: string;
  regionId?: number;
  status?: number;
  networkStatus?: number;
  groupId?: number;
  gatewayId?: string;
}

/** Paging is not part of an export; every matching row is in the file. */
export type ExportQueryOf<Q extends PageQuery> = Omit<Q, 'pageNum' | 'pageSize'>;
