import type { EntityManager } from 'typeorm';
import {
  CALL_CODE_PATTERN,
  DeviceFamily,
  DeviceType,
  IMPORT_GROUP_FIELD,
  IPV4_PATTERN,
  NUMBER_BOUNDS,
  RELAY_SERVER_MAX,
  TERMINAL_NAME_MAX,
  TERMINAL_TYPE_MAX,
  TerminalStatus,
  terminalStatusOf,
  type Language,
  type OnlineState,
  type TerminalOccupancy,
} from '@sc/contracts';
import { translate, type MessageKey } from '@sc/i18n';
import { AppException } from '../common/app-exception';
import { terminalWhere, type TerminalFilters } from '../broadcast/terminal-filters';
import type { ExportQuery, ExportRow } from '../exports/list-export';
import { regionLabelSql } from '../regions/region-label';
import { columnOf, type ExistingRecord, type ImportGroup, type ImportTable, type RowToWrite, type RowValues } from './import-table';

/** The import's columns of a terminal over `device d` and `broadcast_terminal t`, its region and pole as given. */
const valuesSql = (region: string, pole: string) => `d.name AS "terminalName", t.terminal_ip AS "terminalIP", d.code AS "terminalId",
  t.call_code AS "callCode", t.is_default AS "isDefault", t.interphone_volume AS "interphoneVolume",
  t.broadcast_volume AS "broadcastVolume", t.priority, t.relay_server AS "relayServer", t.terminal_type AS "terminalType",
  ${region} AS "regionId", ${pole} AS "poleCode"`;

/** The order of the unnest() arrays below. */
const KEYS = [
  'terminalName',
  'terminalIP',
  'terminalId',
  'callCode',
  'isDefault',
  'interphoneVolume',
  'broadcastVolume',
  'priority',
  'relayServer',
  'terminalType',
  'regionId',
  'poleCode',
] as const;
/** The rows to write as a table `input`, from the arrays of KEYS (and of the records' ids, to update them). */
const inputSql = (withIds: boolean) => `input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::boolean[], $6::int[], $7::int[], $8::int[], $9::text[],
                       $10::text[], $11::int[], $12::int[]${withIds ? ', $13::int[]' : ''})
    AS t(name, terminal_ip, code, call_code, is_default, interphone_volume, broadcast_volume, priority, relay_server, terminal_type,
         region_id, pole_id${withIds ? ', id' : ''})
)`;

const STATUS_WORD: Record<TerminalStatus, MessageKey> = {
  [TerminalStatus.Online]: 'terminalStatusOnline',
  [TerminalStatus.Offline]: 'terminalStatusOffline',
  [TerminalStatus.Occupied]: 'terminalStatusOccupy',
};

/**
 * Broadcast groups: a terminal may be in several, so importing into one adds the terminals to it and leaves their
 * other groups as they are.
 */
const BROADCAST_GROUP: ImportGroup = {
  async check(db, groupId) {
    const found: unknown[] = await db.query(`SELECT 1 FROM broadcast_group WHERE id = $1 FOR KEY SHARE`, [groupId]);
    if (found.length === 0) throw AppException.field(IMPORT_GROUP_FIELD, 'importGroupNotFound');
  },
};

/**
 * At most one terminal is the default: a file that makes one the default takes it from the one before (as the
 * terminal form does), before the rows are written (a unique index holds the rule).
 */
async function takeDefault(tx: EntityManager, rows: RowToWrite[]): Promise<void> {
  const terminal = rows.find((r) => r.values.isDefault === true);
  if (!terminal) return;
  await tx.query(
    `UPDATE broadcast_terminal t SET is_default = false FROM device d
      WHERE d.id = t.device_id AND t.is_default AND d.code <> $1`,
    [terminal.values.terminalId],
  );
}

const arrays = (rows: RowToWrite[]) => KEYS.map((key) => columnOf(rows, key));

/**
 * Broadcast terminals (POST :8888/api/broadcast/terminalImport): a device of type broadcast equipment whose code is
 * the terminal ID, and its terminal row, with every field of the terminal form; the chosen group is a broadcast group
 * the terminals join. Volumes, priority and default read an empty cell as a new terminal's value (50, 50, 5, no).
 * The export adds the list's status and what a terminal plays, which an import ignores.
 */
export const TERMINAL_IMPORT: ImportTable = {
  kind: 'terminal',
  mqttFamily: DeviceFamily.Broadcast,
  group: BROADCAST_GROUP,
  codeColumn: 'terminalId',
  columns: [
    { key: 'terminalName', kind: 'text', required: true, max: TERMINAL_NAME_MAX, example: 'Lianhua Square terminal 1' },
    {
      key: 'terminalIP',
      kind: 'text',
      required: true,
      max: 15,
      pattern: { test: IPV4_PATTERN, reason: 'terminalIpInvalid' },
      example: '10.20.1.11',
    },
    { key: 'terminalId', kind: 'code', required: true, example: 'BC-1001' },
    { key: 'callCode', kind: 'text', max: 16, pattern: { test: CALL_CODE_PATTERN, reason: 'callCodeInvalid' }, example: '8001' },
    { key: 'isDefault', kind: 'boolean', empty: false, onlyOne: 'importOneDefaultTerminal', example: false },
    { key: 'interphoneVolume', kind: 'number', integer: true, range: NUMBER_BOUNDS.volume, empty: 50, example: 50 },
    { key: 'broadcastVolume', kind: 'number', integer: true, range: NUMBER_BOUNDS.volume, empty: 50, example: 60 },
    { key: 'priority', kind: 'number', integer: true, range: NUMBER_BOUNDS.terminalPriority, empty: 5, example: 5 },
    { key: 'relayServer', kind: 'text', max: RELAY_SERVER_MAX, example: 'relay-1.city.local' },
    { key: 'terminalType', kind: 'text', max: TERMINAL_TYPE_MAX, example: 'IP column speaker' },
    { key: 'regionId', kind: 'region', example: 'Futian District' },
    { key: 'poleCode', kind: 'pole', example: '' },
  ],
  listColumns: ['status', 'playing'],

  async load(tx: EntityManager, codes: string[]): Promise<Map<string, ExistingRecord>> {
    const rows: (RowValues & { id: number; groupIds: number[]; terminalId: string })[] = await tx.query(
      `SELECT d.id, ARRAY(SELECT m.group_id FROM broadcast_group_member m WHERE m.device_id = d.id) AS "groupIds",
              ${valuesSql('d.region_id', 'd.pole_id')}
         FROM device d JOIN broadcast_terminal t ON t.device_id = d.id
        WHERE d.type = $1 AND d.code = ANY($2::text[])`,
      [DeviceType.Broadcast, codes],
    );
    return new Map(rows.map(({ id, groupIds, ...values }) => [values.terminalId, { id, groupIds, values }]));
  },

  async insert(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await takeDefault(tx, rows);
    await tx.query(
      `WITH ${inputSql(false)}, added AS (
         INSERT INTO device (type, code, name, region_id, pole_id)
         SELECT $13, code, name, region_id, pole_id FROM input
         RETURNING id, code
       ), members AS (
         INSERT INTO broadcast_group_member (group_id, device_id) SELECT $14, id FROM added
       )
       INSERT INTO broadcast_terminal (device_id, terminal_ip, call_code, is_default, interphone_volume, broadcast_volume, priority,
                                       relay_server, terminal_type)
       SELECT added.id, i.terminal_ip, i.call_code, i.is_default, i.interphone_volume, i.broadcast_volume, i.priority, i.relay_server,
              i.terminal_type
         FROM added JOIN input i USING (code)`,
      [...arrays(rows), DeviceType.Broadcast, groupId],
    );
  },

  async update(tx: EntityManager, rows: RowToWrite[], groupId: number): Promise<void> {
    await takeDefault(tx, rows);
    await tx.query(
      `WITH ${inputSql(true)}, devices AS (
         UPDATE device d SET name = i.name, region_id = i.region_id, pole_id = i.pole_id, updated_at = now()
           FROM input i WHERE d.id = i.id
       ), members AS (
         INSERT INTO broadcast_group_member (group_id, device_id) SELECT $14, id FROM input ON CONFLICT DO NOTHING
       )
       UPDATE broadcast_terminal t SET terminal_ip = i.terminal_ip, call_code = i.call_code, is_default = i.is_default,
              interphone_volume = i.interphone_volume, broadcast_volume = i.broadcast_volume, priority = i.priority,
              relay_server = i.relay_server, terminal_type = i.terminal_type
         FROM input i WHERE t.device_id = i.id`,
      [...arrays(rows), rows.map((r) => r.id), groupId],
    );
  },

  exportQuery(f: Record<string, unknown>, lng: Language): ExportQuery {
    return {
      select: `${valuesSql(regionLabelSql('r', lng), 'p.code')}, t.network_status AS "networkStatus", t.occupancy,
               t.playing->>'title' AS playing`,
      from: `device d JOIN broadcast_terminal t ON t.device_id = d.id LEFT JOIN region r ON r.id = d.region_id
             LEFT JOIN device p ON p.id = d.pole_id`,
      where: terminalWhere(f as TerminalFilters),
      orderBy: 'd.code',
      id: 'd.id',
    };
  },

  /** Default as a word, and the status (spec section 4) from what it is derived from, in the caller's language. */
  present(row: ExportRow, lng: Language): ExportRow {
    const { networkStatus, occupancy, ...shown } = row as ExportRow & { networkStatus: OnlineState; occupancy: TerminalOccupancy };
    return {
      ...shown,
      isDefault: translate(lng, row.isDefault ? 'yes' : 'no'),
      status: translate(lng, STATUS_WORD[terminalStatusOf(networkStatus, occupancy)]),
    };
  },
};
