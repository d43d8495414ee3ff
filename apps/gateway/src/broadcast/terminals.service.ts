import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  BROADCAST_FAMILY,
  DeviceType,
  terminalStatusOf,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type TerminalRow,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { removeRegistryDevice, saveRegistryDevice } from '../common/registry-device';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { pagedQuery } from '../common/sql';
import { DeviceControlService, type SelectionWording } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import type { TerminalAddOrEditDto, TerminalPageDto, TerminalPlaybackDto, TerminalVolumeDto } from './dto/terminal.dto';
import { terminalsOfGroups } from './group-members';
import { terminalWhere } from './terminal-filters';

const TERMINAL_COLUMNS = `d.id, d.name AS "terminalName", d.code AS "terminalId", t.terminal_ip AS "terminalIP", t.call_code AS "callCode",
  t.is_default AS "isDefault", t.interphone_volume AS "interphoneVolume", t.broadcast_volume AS "broadcastVolume", t.priority,
  t.relay_server AS "relayServer", t.terminal_type AS "terminalType", d.region_id AS "regionId", r.region_name AS "regionName",
  d.pole_id AS "poleId", p.code AS "poleCode", p.name AS "poleName", t.network_status AS "networkStatus", t.occupancy, t.playing, t.held_tasks AS "heldTasks", t.download,
  t.hardware_version AS "hardwareVersion", t.software_version AS "softwareVersion", t.reported_at AS "reportedAt"`;
const TERMINAL_FROM = `device d JOIN broadcast_terminal t ON t.device_id = d.id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

type StoredRow = Omit<TerminalRow, 'status'>;
const withStatus = (row: StoredRow): TerminalRow => ({ ...row, status: terminalStatusOf(row.networkStatus, row.occupancy) });

/** The terminals meeting `condition` (over the device d and its terminal row t; `$n` for `params`), in `orderBy`. */
export async function terminalsWhere(db: DataSource | EntityManager, condition: string, params: unknown[], orderBy = 'd.id'): Promise<TerminalRow[]> {
  const rows: StoredRow[] = await db.query(`SELECT ${TERMINAL_COLUMNS} FROM ${TERMINAL_FROM} WHERE ${condition} ORDER BY ${orderBy}`, params);
  return rows.map(withStatus);
}

/** Broadcast terminals (spec sections 3 and 4): the list, their records, and their volumes and playback through the command ledger. */
@Injectable()
export class TerminalsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly devices: DeviceControlService,
    private readonly credentials: DeviceCredentials,
  ) {}

  async page(q: TerminalPageDto): Promise<PageResult<TerminalRow>> {
    const where = terminalWhere(q);
    const page = await pagedQuery<StoredRow>(this.db, {
      select: TERMINAL_COLUMNS,
      from: TERMINAL_FROM,
      countFrom: 'device d JOIN broadcast_terminal t ON t.device_id = d.id',
      where,
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
    return { total: page.total, list: page.list.map(withStatus) };
  }

  async detail(id: number): Promise<TerminalRow> {
    const [row] = await terminalsWhere(this.db, 'd.id = $1', [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Adds a terminal (its device record, type broadcast equipment, with the terminal ID as its code, and its terminal
   * row; offline and idle until it reports) or changes one. On edit, an optional field left out keeps its value; null
   * regionId or poleId takes it out of its region or off its pole. Making a terminal the default takes the default
   * from the one before. The terminal ID is its MQTT identity: changing it needs Edit MQTT besides Edit.
   */
  async save(caller: Caller, dto: TerminalAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.isDefault) await tx.query(`UPDATE broadcast_terminal SET is_default = false WHERE is_default AND device_id <> $1`, [dto.id ?? 0]);
        const saved = await saveRegistryDevice(tx, caller, this.credentials, {
          type: DeviceType.Broadcast,
          id: dto.id,
          code: dto.terminalId,
          name: dto.terminalName,
          regionId: dto.regionId,
          poleId: dto.poleId,
          codeField: 'terminalId',
        });
        if (saved.created) {
          await tx.query(
            `INSERT INTO broadcast_terminal (device_id, terminal_ip, call_code, is_default, interphone_volume, broadcast_volume, priority, relay_server, terminal_type)
             VALUES ($1, $2, $3, $4, coalesce($5, 50), coalesce($6, 50), coalesce($7, 5), $8, $9)`,
            [
              saved.id,
              dto.terminalIP,
              dto.callCode ?? '',
              dto.isDefault ?? false,
              dto.interphoneVolume ?? null,
              dto.broadcastVolume ?? null,
              dto.priority ?? null,
              dto.relayServer ?? '',
              dto.terminalType ?? '',
            ],
          );
          return { id: saved.id, mqtt: saved.mqtt };
        }
        // Volumes set here are what the console asks for next; the terminal's reports say what it runs.
        await tx.query(
          `UPDATE broadcast_terminal SET terminal_ip = $2, call_code = coalesce($3, call_code), is_default = coalesce($4, is_default),
                  interphone_volume = coalesce($5, interphone_volume), broadcast_volume = coalesce($6, broadcast_volume),
                  priority = coalesce($7, priority), relay_server = coalesce($8, relay_server), terminal_type = coalesce($9, terminal_type)
            WHERE device_id = $1`,
          [
            saved.id,
            dto.terminalIP,
            dto.callCode ?? null,
            dto.isDefault ?? null,
            dto.interphoneVolume ?? null,
            dto.broadcastVolume ?? null,
            dto.priority ?? null,
            dto.relayServer ?? null,
            dto.terminalType ?? null,
          ],
        );
        return saved.mqtt ? { id: saved.id, mqtt: saved.mqtt } : { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('terminalId', 'terminalIdTaken', { terminalId: dto.terminalId });
      // The region or pole went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('poleId', 'poleNotFound');
      throw err;
    }
  }

  /** Deletes the terminal's device record; its terminal row and dispatch rows go with it. */
  remove(id: number): Promise<void> {
    return removeRegistryDevice(this.db.manager, DeviceType.Broadcast, id);
  }

  /** Sets one or both volumes on the selected terminals, or on every terminal of a region, through the command ledger. */
  async volume(caller: Caller, dto: TerminalVolumeDto): Promise<LampControlResult> {
    if (dto.broadcastVolume === undefined && dto.interphoneVolume === undefined) throw AppException.field('broadcastVolume', 'volumeEmpty');
    const params = {
      ...(dto.broadcastVolume !== undefined ? { broadcastVolume: dto.broadcastVolume } : {}),
      ...(dto.interphoneVolume !== undefined ? { interphoneVolume: dto.interphoneVolume } : {}),
    };
    return this.devices.dispatch(caller, BROADCAST_FAMILY, dto, 'volume', TERMINAL_SELECTION, () => ({ params }));
  }

  /** Pauses, resumes (cancel pause) or stops what the terminals play. */
  playback(caller: Caller, dto: TerminalPlaybackDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, BROADCAST_FAMILY, dto, dto.action, TERMINAL_SELECTION, () => ({ params: {} }));
  }
}

/** How terminal selections are refused, and broadcast groups read. */
export const TERMINAL_SELECTION: SelectionWording = {
  empty: 'terminalSelectionEmpty',
  ambiguous: 'terminalSelectionAmbiguous',
  unknown: (shown) => AppException.badRequest('unknownTerminals', { ids: shown }),
  emptyRegion: () => AppException.field('regionId', 'regionHasNoTerminals'),
  gone: () => AppException.badRequest('terminalSelectionEmpty'),
  groups: terminalsOfGroups,
};
