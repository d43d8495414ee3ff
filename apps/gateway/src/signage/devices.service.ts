import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  Button,
  DeviceFamily,
  SIGNAGE_FAMILY,
  signageBindable,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type SignageDeviceRow,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { assertRegionExists, devicesByIds } from '../common/device-selection';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { Caller } from '../common/request-context';
import { Where, likeContains, pagedQuery } from '../common/sql';
import { DeviceControlService, type DispatchContent, type SelectionWording } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import type { SignageBindDto, SignageDeviceAddOrEditDto, SignageDevicePageDto, SignageSelectionDto, SignageVolumeDto } from './dto/device.dto';
import { lockSignageGroup, signageOfGroups } from './signage-groups';
import { shownList } from '../common/shown-list';

const DEVICE_COLUMNS = `s.id, s.name, s.code, s.c_mark AS "cMark", s.address, s.latitude, s.longitude, s.region_id AS "regionId",
  r.region_name AS "regionName", s.group_id AS "groupId", g.name AS "groupName", s.network_status AS "networkStatus", s.volume,
  s.muted, s.screen_state AS "screenState", s.orientation, s.resolution, s.current_ad AS "currentAd",
  s.serial_number AS "serialNumber", s.software_version AS "softwareVersion", s.reported_at AS "reportedAt",
  s.last_screenshot_at AS "lastScreenshotAt"`;
const DEVICE_FROM = `signage_device s LEFT JOIN region r ON r.id = s.region_id LEFT JOIN signage_group g ON g.id = s.group_id`;

/** The commands the console sends floor screens without parameters. */
export type SignagePlainAction = 'mute' | 'unmute' | 'reboot';

/** How floor-screen selections are refused, and their groups read. */
export const SIGNAGE_SELECTION: SelectionWording = {
  empty: 'signageSelectionEmpty',
  ambiguous: 'signageSelectionAmbiguous',
  unknown: (shown) => AppException.badRequest('unknownSignageDevices', { ids: shown }),
  emptyRegion: () => AppException.field('regionId', 'regionHasNoSignage'),
  gone: () => AppException.badRequest('signageSelectionEmpty'),
  groups: signageOfGroups,
};

/** Floor screens (spec section 3's floor-screen device): the list, their records, their groups and their commands. */
@Injectable()
export class SignageDevicesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly control: DeviceControlService,
    private readonly credentials: DeviceCredentials,
  ) {}

  /** Players by part of their name or code, their group (0: none) and their network status, in id order. */
  page(q: SignageDevicePageDto): Promise<PageResult<SignageDeviceRow>> {
    const where = new Where()
      // The name or the code (the separator keeps a match from spanning both).
      .addIf(q.name, `lower(s.name || chr(1) || s.code) LIKE ?`, q.name && likeContains(q.name))
      .addIf(q.networkStatus, `s.network_status = ?`)
      // Group 0: players in no group.
      .addIf(q.groupId, `coalesce(s.group_id, 0) = ?`);
    return pagedQuery<SignageDeviceRow>(this.db, {
      select: DEVICE_COLUMNS,
      from: DEVICE_FROM,
      countFrom: 'signage_device s',
      where,
      orderBy: 's.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: number): Promise<SignageDeviceRow> {
    const [row]: SignageDeviceRow[] = await this.db.query(`SELECT ${DEVICE_COLUMNS} FROM ${DEVICE_FROM} WHERE s.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Adds a player (offline until it reports; its MQTT login answered once) or changes one. On edit, an optional field
   * left out keeps its value. The code is its MQTT identity: changing it needs Edit MQTT besides Edit, and gives it a
   * new login. A player in a group keeps what binding needs ('Device binding needs complete information').
   */
  async save(caller: Caller, dto: SignageDeviceAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    if (!caller.buttons.includes(dto.id === undefined ? Button.Add : Button.Edit)) throw AppException.forbidden();
    if (((dto.latitude ?? null) === null) !== ((dto.longitude ?? null) === null)) throw AppException.field('latitude', 'positionIncomplete');
    try {
      return await this.db.transaction(async (tx) => {
        if (dto.regionId !== undefined && dto.regionId !== null) await assertRegionExists(tx, dto.regionId);
        if (dto.id === undefined) {
          const [{ id, generation }]: { id: number; generation: number }[] = await tx.query(
            `INSERT INTO signage_device (code, name, c_mark, address, latitude, longitude, region_id, serial_number, orientation)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, coalesce($9, '9:16')) RETURNING id, mqtt_generation AS generation`,
            [
              dto.code,
              dto.name,
              dto.cMark ?? '',
              dto.address ?? '',
              dto.latitude ?? null,
              dto.longitude ?? null,
              dto.regionId ?? null,
              dto.serialNumber ?? '',
              dto.orientation ?? null,
            ],
          );
          // The new player's MQTT login, handed out once (docs/security.md).
          return { id, mqtt: this.credentials.of(DeviceFamily.Signage, dto.code, generation) };
        }
        const [current]: { code: string }[] = await tx.query(`SELECT code FROM signage_device WHERE id = $1 FOR UPDATE`, [dto.id]);
        if (!current) throw AppException.notFound();
        if (current.code !== dto.code && !caller.buttons.includes(Button.EditMqtt)) throw AppException.field('code', 'clientIdNeedsEditMqtt');
        const [[after]]: [{ groupId: number | null; cMark: string; address: string; latitude: number | null; longitude: number | null }[]] =
          await tx.query(
            `UPDATE signage_device SET code = $2, name = $3, c_mark = coalesce($4, c_mark), address = coalesce($5, address),
                    latitude = CASE WHEN $6::boolean THEN $7::float8 ELSE latitude END,
                    longitude = CASE WHEN $6::boolean THEN $8::float8 ELSE longitude END,
                    region_id = CASE WHEN $9::boolean THEN $10::int ELSE region_id END,
                    serial_number = coalesce($11, serial_number), orientation = coalesce($12, orientation), updated_at = now()
              WHERE id = $1
              RETURNING group_id AS "groupId", c_mark AS "cMark", address, latitude, longitude`,
            [
              dto.id,
              dto.code,
              dto.name,
              dto.cMark ?? null,
              dto.address ?? null,
              dto.latitude !== undefined || dto.longitude !== undefined,
              dto.latitude ?? null,
              dto.longitude ?? null,
              dto.regionId !== undefined,
              dto.regionId ?? null,
              dto.serialNumber ?? null,
              dto.orientation ?? null,
            ],
          );
        if (after.groupId !== null && !signageBindable(after)) throw AppException.badRequest('signageBoundNeedsInformation');
        if (current.code === dto.code) return { id: dto.id };
        return { id: dto.id, mqtt: await this.credentials.renew(tx, DeviceFamily.Signage, dto.id) };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('code', 'signageCodeTaken', { code: dto.code });
      // The region went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('regionId', 'regionNotFound');
      throw err;
    }
  }

  /** Deletes a player; its screenshots and dispatch rows go with it, and its MQTT login stops working. */
  async remove(id: number): Promise<void> {
    const [, affected] = (await this.db.query(`DELETE FROM signage_device WHERE id = $1`, [id])) as [unknown, number];
    if (!affected) throw AppException.notFound();
  }

  /**
   * Binds players that are in no group to a group (`move`: players in any group, or none, to another). Every player
   * must have what binding needs (cMark, address, latitude and longitude); binding refuses players already in a group.
   */
  async bind(dto: SignageBindDto, move: boolean): Promise<void> {
    if (!dto.ids || dto.ids.length === 0) throw AppException.field('ids', 'signageSelectionEmpty');
    await this.db.transaction(async (tx) => {
      await lockSignageGroup(tx, dto.groupId);
      const ids = await devicesByIds(tx, SIGNAGE_FAMILY, dto.ids, SIGNAGE_SELECTION.unknown);
      const players = await playersForBinding(tx, ids);
      const incomplete = players.filter((p) => !signageBindable(p));
      if (incomplete.length > 0) throw AppException.badRequest('signageBindingIncomplete', { names: namesOf(incomplete) });
      const bound = players.filter((p) => p.groupId !== null);
      if (!move && bound.length > 0) throw AppException.badRequest('signageAlreadyBound', { names: namesOf(bound) });
      await tx.query(`UPDATE signage_device SET group_id = $2, updated_at = now() WHERE id = ANY($1::int[])`, [ids, dto.groupId]);
    });
  }

  /** Sets the volume of the chosen players through the command ledger. */
  volume(caller: Caller, dto: SignageVolumeDto): Promise<LampControlResult> {
    return this.dispatch(caller, dto, 'volume', () => ({ params: { volume: dto.volume } }));
  }

  /** Mutes, unmutes or reboots the chosen players. */
  command(caller: Caller, dto: SignageSelectionDto, action: SignagePlainAction): Promise<LampControlResult> {
    return this.dispatch(caller, dto, action, () => ({ params: {} }));
  }

  /** One floor-screen dispatch: the action's button, the selection (ids, a region or groups) and the ledger. */
  dispatch(
    caller: Caller,
    dto: SignageSelectionDto,
    action: keyof typeof SIGNAGE_FAMILY.actions,
    content: (tx: EntityManager, deviceIds: number[]) => Promise<DispatchContent> | DispatchContent,
  ): Promise<LampControlResult> {
    return this.control.dispatch(caller, SIGNAGE_FAMILY, dto, action, SIGNAGE_SELECTION, content);
  }
}

type BindingFields = {
  id: number;
  name: string;
  groupId: number | null;
  cMark: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
};

/** The players binding looks at, locked against other changes until the transaction ends. */
async function playersForBinding(tx: EntityManager, ids: readonly number[]): Promise<BindingFields[]> {
  return tx.query(
    `SELECT id, name, group_id AS "groupId", c_mark AS "cMark", address, latitude, longitude
       FROM signage_device WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
}

const NAMES_SHOWN = 10;
const namesOf = (players: readonly { name: string }[]): string =>
  shownList(
    players.map((p) => p.name),
    NAMES_SHOWN,
  );
