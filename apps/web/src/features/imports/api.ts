import { useQuery } from '@tanstack/react-query';
import {
  IMPORT_DRY_RUN_FIELD,
  EXPORT_FILE_NAMES,
  IMPORT_FILE_NAMES,
  IMPORT_GROUP_FIELD,
  UPLOAD_FIELD,
  type BroadcastGroupOption,
  type DeviceGroupOption,
  type ExportKind,
  type ImportKind,
  type ImportRejection,
  type ImportResult,
  type RadarGroupRow,
  type UploadTarget,
} from '@sc/contracts';
import { ApiError, get, request, type QueryValue } from '@/api/request';
import { downloadFile } from '@/api/download';

/**
 * Where each kind's calls live: single lamps, gateways and loops under /light, poles under /lamp (spec section 7),
 * broadcast terminals under /broadcast, radars under /radar, LED screens (exported only) under /led, floor-screen plays (a report, exported
 * only) under /signage, Wi-Fi access controllers and access points, client sessions and clients per region (both
 * exported only) under /wifi, alarm columns under /alarm, video equipment (exported only) under /video.
 */
const MODULE: Record<ExportKind, 'light' | 'lamp' | 'broadcast' | 'led' | 'signage' | 'radar' | 'wifi' | 'alarm' | 'video'> = {
  light: 'light',
  gateway: 'light',
  loop: 'light',
  lamp: 'lamp',
  terminal: 'broadcast',
  radar: 'radar',
  led: 'led',
  play: 'signage',
  ac: 'wifi',
  ap: 'wifi',
  terminalHistory: 'wifi',
  regionClients: 'wifi',
  column: 'alarm',
  call: 'alarm',
  camera: 'video',
};

/** Exports whose call is not named after their kind: the video equipment's is the equipment list's (equipmentExport). */
const EXPORT_NAMES: Partial<Record<ExportKind, string>> = { camera: 'equipment' };

export const importPath = (kind: ImportKind) => `/${MODULE[kind]}/${kind}Import`;
export const templatePath = (kind: ImportKind) => `/${MODULE[kind]}/${kind}Template`;
export const exportPath = (kind: ExportKind) => `/${MODULE[kind]}/${EXPORT_NAMES[kind] ?? kind}Export`;

/** The upload application's address: its port, on the host name the console was opened with. */
export function useUploadBase(): string | undefined {
  const target = useQuery({
    queryKey: ['imports', 'uploadTarget'],
    queryFn: ({ signal }) => get<UploadTarget>('/imports/uploadTarget', undefined, { signal }),
    staleTime: Infinity,
  });
  return target.data ? `${window.location.protocol}//${window.location.hostname}:${target.data.port}` : undefined;
}

const lampGroups = (signal: AbortSignal) => get<DeviceGroupOption[]>('/light/groupList', { type: 1 }, { signal });

/**
 * The groups a kind's records can be imported into: device groups of single lamps (lamps, and the gateways and loops
 * that serve them) or of poles; broadcast groups for terminals and radar groups for radars (an empty one too: it is
 * where new devices go). Wi-Fi devices and alarm columns are in no group: their import asks for none (null).
 */
const GROUP_OPTIONS: Record<ImportKind, ((signal: AbortSignal) => Promise<DeviceGroupOption[]>) | null> = {
  light: lampGroups,
  gateway: lampGroups,
  loop: lampGroups,
  lamp: (signal) => get<DeviceGroupOption[]>('/lamp/poleGroups', undefined, { signal }),
  terminal: async (signal) =>
    (await get<BroadcastGroupOption[]>('/broadcast/groupOptions', undefined, { signal })).map((g) => ({ id: g.id, name: g.groupName })),
  radar: async (signal) => (await get<RadarGroupRow[]>('/radar/groupOptions', undefined, { signal })).map((g) => ({ id: g.id, name: g.name })),
  ac: null,
  ap: null,
  column: null,
};

/** Whether a kind's import asks for a group. */
export const importTakesGroup = (kind: ImportKind): boolean => GROUP_OPTIONS[kind] !== null;

export function useImportGroups(kind: ImportKind) {
  const options = GROUP_OPTIONS[kind];
  return useQuery({
    queryKey: ['imports', 'groups', kind],
    queryFn: ({ signal }) => (options ? options(signal) : Promise.resolve([])),
    enabled: options !== null,
    staleTime: 30_000,
  });
}

export type ImportOutcome = { result: ImportResult } | { rejection: ImportRejection; message: string };

/**
 * Sends a file to the upload port. A file with bad rows answers with the rows (nothing imported); any other refusal
 * (wrong file, no group, no permission) is thrown, its message already on screen.
 */
export async function importFile(base: string, kind: ImportKind, file: File, groupId: number | null, dryRun: boolean): Promise<ImportOutcome> {
  const body = new FormData();
  if (groupId !== null) body.append(IMPORT_GROUP_FIELD, String(groupId));
  body.append(IMPORT_DRY_RUN_FIELD, String(dryRun));
  body.append(UPLOAD_FIELD, file, file.name);
  try {
    return { result: await request<ImportResult>('POST', importPath(kind), { base, body, silent: true }) };
  } catch (error) {
    const data = error instanceof ApiError ? (error.data as Partial<ImportRejection> | null) : null;
    if (data && typeof data.reportId === 'string') return { rejection: data as ImportRejection, message: (error as ApiError).message };
    throw error;
  }
}

export const downloadTemplate = (kind: ImportKind) => downloadFile(templatePath(kind), `${IMPORT_FILE_NAMES[kind].name}-template`, 'xlsx');
export const downloadReport = (id: string) => downloadFile('/imports/report', 'import-errors', 'xlsx', { id });
export const downloadCredentials = (id: string) => downloadFile('/imports/credentials', 'mqtt-logins', 'xlsx', { id });
/** The filters of each list's export (the server's export DTOs): a page passes its search, and these are sent. */
const EXPORT_FILTERS: Record<ExportKind, readonly string[]> = {
  light: ['lampName', 'regionId', 'status', 'networkStatus', 'groupId', 'gatewayId'],
  gateway: ['name', 'regionId', 'networkStatus'],
  loop: ['gatewayId', 'name'],
  lamp: ['name', 'regionId', 'groupId'],
  terminal: ['terminalName', 'regionId', 'status'],
  radar: ['radarName', 'regionId', 'networkStatus', 'groupId'],
  led: ['name', 'regionId', 'networkStatus'],
  play: ['startDate', 'endDate', 'by', 'regionId', 'groupId', 'deviceId', 'adId'],
  ac: ['name', 'regionId', 'networkStatus'],
  ap: ['name', 'regionId', 'networkStatus', 'acId'],
  terminalHistory: ['from', 'to', 'client', 'apId', 'acId', 'clientSsid', 'regionId', 'minDuration'],
  regionClients: ['regionIds'],
  column: ['name', 'regionId', 'networkStatus'],
  call: ['keyword', 'callType', 'status', 'direction', 'startFrom', 'startTo', 'sort'],
  camera: ['name', 'regionId', 'poleId', 'vendor', 'category', 'subType', 'networkStatus'],
};

/** Downloads a list as filtered on screen: `search` is the page's search (its paging and other keys are left out). */
export function downloadExport(kind: ExportKind, search: object): Promise<void> {
  const values = search as Record<string, unknown>;
  const filters: Record<string, QueryValue> = {};
  for (const key of EXPORT_FILTERS[kind]) {
    const value = values[key];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') filters[key] = value;
  }
  return downloadFile(exportPath(kind), EXPORT_FILE_NAMES[kind], 'xlsx', filters);
}
