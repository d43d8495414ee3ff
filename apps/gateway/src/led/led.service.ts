import { Inject, Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import {
  DeviceType,
  LED_FAMILY,
  type LampControlResult,
  type LedDaylightResult,
  type LedRow,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import { removeRegistryDevice, saveRegistryDevice } from '../common/registry-device';
import type { Caller } from '../common/request-context';
import { pagedQuery } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { DeviceControlService, checkSelection, selectDevices, type SelectionWording } from '../dispatch/device-control.service';
import { assertMayControl } from '../dispatch/dispatch.service';
import { InjectDb } from '../infra/database';
import { lampPlaces } from '../strategies/lamp-places';
import type { LedAddOrEditDto, LedBrightnessDto, LedDaylightDto, LedPageDto, LedScreenDto, LedSelectionDto, LedVolumeDto } from './dto/led.dto';
import { LED_FROM, ledWhere } from './led-filters';

const LED_COLUMNS = `d.id, d.name, d.code AS sn, s.ip_address AS "IPAddress", s.width, s.height, s.time_zone AS "timeZone",
  d.region_id AS "regionId", r.region_name AS "regionName", d.pole_id AS "poleId", p.code AS "poleCode", p.name AS "poleName",
  s.network_status AS "networkStatus", s.brightness, s.volume, s.screen_state AS screen, s.clock_zone AS "clockZone",
  s.hardware_version AS "hardwareVersion", s.software_version AS "softwareVersion", s.reported_at AS "reportedAt",
  CASE WHEN s.daylight_day IS NULL THEN NULL ELSE json_build_object('dayBrightness', s.daylight_day, 'nightBrightness', s.daylight_night) END AS daylight,
  s.daylight_phase AS "daylightPhase", s.playing`;

/** How LED screen selections are refused. */
export const LED_SELECTION: SelectionWording = {
  empty: 'ledSelectionEmpty',
  ambiguous: 'ledSelectionAmbiguous',
  unknown: (shown) => AppException.badRequest('unknownLedScreens', { ids: shown }),
  emptyRegion: () => AppException.field('regionId', 'regionHasNoLedScreens'),
  gone: () => AppException.badRequest('ledSelectionEmpty'),
};

/**
 * LED screens (spec section 3, "LED"): the list, their records (registry devices of type 4, mounted on poles), their
 * settings through the command ledger, and the daylight brightness rule the LED worker applies.
 */
@Injectable()
export class LedService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly devices: DeviceControlService,
    private readonly credentials: DeviceCredentials,
  ) {}

  page(q: LedPageDto): Promise<PageResult<LedRow>> {
    return pagedQuery<LedRow>(this.db, {
      select: LED_COLUMNS,
      from: LED_FROM,
      countFrom: 'device d JOIN led_screen s ON s.device_id = d.id',
      where: ledWhere(q),
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: number): Promise<LedRow> {
    const [row]: LedRow[] = await this.db.query(`SELECT ${LED_COLUMNS} FROM ${LED_FROM} WHERE d.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Adds a screen (its device record, type LED screen, with the serial number as its code, and its screen row; offline
   * until it reports) or changes one. Without a time zone it takes its region's (or the installation's). Changing the
   * serial number (its MQTT identity) needs Edit MQTT besides Edit, and hands out a new login.
   */
  async save(caller: Caller, dto: LedAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    try {
      return await this.db.transaction(async (tx) => {
        const saved = await saveRegistryDevice(tx, caller, this.credentials, {
          type: DeviceType.LedScreen,
          id: dto.id,
          code: dto.sn,
          name: dto.name,
          regionId: dto.regionId,
          poleId: dto.poleId,
          codeField: 'sn',
        });
        if (saved.created) {
          // A new screen's clock is its place's unless the operator gave one (an edit keeps what it has).
          const timeZone = dto.timeZone ?? (await this.placeOf(tx, [saved.id])).get(saved.id)?.timeZone ?? this.config.defaultPlace.timeZone;
          await tx.query(`INSERT INTO led_screen (device_id, ip_address, width, height, time_zone) VALUES ($1, $2, $3, $4, $5)`, [
            saved.id,
            dto.IPAddress,
            dto.width,
            dto.height,
            timeZone,
          ]);
        } else {
          await tx.query(`UPDATE led_screen SET ip_address = $2, width = $3, height = $4, time_zone = coalesce($5, time_zone) WHERE device_id = $1`, [
            saved.id,
            dto.IPAddress,
            dto.width,
            dto.height,
            dto.timeZone ?? null,
          ]);
        }
        return saved.mqtt ? { id: saved.id, mqtt: saved.mqtt } : { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('sn', 'ledSnTaken', { sn: dto.sn });
      // The region or pole went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('poleId', 'poleNotFound');
      throw err;
    }
  }

  remove(id: number): Promise<void> {
    return removeRegistryDevice(this.db.manager, DeviceType.LedScreen, id);
  }

  brightness(caller: Caller, dto: LedBrightnessDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'brightness', LED_SELECTION, () => ({ params: { brightness: dto.brightness } }));
  }

  volume(caller: Caller, dto: LedVolumeDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'volume', LED_SELECTION, () => ({ params: { volume: dto.volume } }));
  }

  screen(caller: Caller, dto: LedScreenDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'screen', LED_SELECTION, () => ({ params: { screen: dto.screen } }));
  }

  reboot(caller: Caller, dto: LedSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'reboot', LED_SELECTION, () => ({ params: {} }));
  }

  /** Sets each screen's clock to now in its own time zone (a row each: screens of several zones in one dispatch). */
  syncTime(caller: Caller, dto: LedSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, LED_FAMILY, dto, 'syncTime', LED_SELECTION, async (tx, ids) => {
      const zones: { id: number; timeZone: string }[] = await tx.query(
        `SELECT device_id AS id, time_zone AS "timeZone" FROM led_screen WHERE device_id = ANY($1::int[])`,
        [ids],
      );
      const zoneOf = new Map(zones.map((z) => [z.id, z.timeZone]));
      const utc = new Date().toISOString();
      return { params: { utc }, itemParams: ids.map((id) => ({ timeZone: zoneOf.get(id) ?? this.config.defaultPlace.timeZone, utc })) };
    });
  }

  /**
   * Puts the daylight rule on the selected screens, with the place of each (its position, its region's, the
   * installation's) whose sunrise and sunset it follows, or takes it off. The LED worker sends the brightness of the
   * phase of now on its next pass (within a minute) and at every sunrise and sunset after it.
   */
  async daylight(caller: Caller, dto: LedDaylightDto): Promise<LedDaylightResult> {
    assertMayControl(caller, LED_FAMILY.family, 'brightness');
    if (dto.enabled && dto.dayBrightness === undefined) throw AppException.field('dayBrightness', 'brightnessEmpty');
    if (dto.enabled && dto.nightBrightness === undefined) throw AppException.field('nightBrightness', 'brightnessEmpty');
    checkSelection(dto, LED_SELECTION);
    return this.db.transaction(async (tx) => {
      const ids = await selectDevices(tx, LED_FAMILY, dto, LED_SELECTION);
      if (!dto.enabled) {
        await tx.query(
          `UPDATE led_screen SET daylight_day = NULL, daylight_night = NULL, daylight_place = NULL, daylight_phase = NULL WHERE device_id = ANY($1::int[])`,
          [ids],
        );
        return { screens: ids.length };
      }
      const places = await this.placeOf(tx, ids);
      await tx.query(
        `UPDATE led_screen s SET daylight_day = $2, daylight_night = $3, daylight_place = t.place, daylight_phase = NULL
           FROM unnest($1::int[], $4::jsonb[]) AS t(id, place) WHERE s.device_id = t.id`,
        [ids, dto.dayBrightness, dto.nightBrightness, ids.map((id) => JSON.stringify(places.get(id) ?? this.config.defaultPlace))],
      );
      return { screens: ids.length };
    });
  }

  private async placeOf(tx: EntityManager, ids: readonly number[]) {
    const places = await lampPlaces((sql, params) => tx.query(sql, params), ids, this.config.defaultPlace);
    return new Map([...places].map(([id, { place }]) => [id, place]));
  }
}
