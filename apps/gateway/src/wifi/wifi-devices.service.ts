import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  AC_FAMILY,
  AP_FAMILY,
  DeviceType,
  type AcRow,
  type ApRow,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation, pgConstraint } from '../common/pg-errors';
import { removeRegistryDevice, saveRegistryDevice } from '../common/registry-device';
import type { Caller } from '../common/request-context';
import { pagedQuery } from '../common/sql';
import { DeviceControlService, type SelectionWording } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import type { AcAddOrEditDto, AcPageDto, ApAddOrEditDto, ApPageDto, WifiSelectionDto } from './dto/wifi.dto';
import { AC_COLUMNS, AC_FROM, AP_COLUMNS, AP_FROM, wifiDeviceWhere } from './wifi-filters';

/** What differs between the two kinds of Wi-Fi device; everything else is the same code. */
interface WifiKind {
  family: typeof AC_FAMILY | typeof AP_FAMILY;
  type: DeviceType;
  table: 'wifi_ac' | 'wifi_ap';
  columns: string;
  from: string;
  selection: SelectionWording;
  snTaken: 'acSnTaken' | 'apSnTaken';
  macTaken: 'acMacTaken' | 'apMacTaken';
}

const wording = (kind: 'Ac' | 'Ap'): SelectionWording => ({
  empty: `wifi${kind}SelectionEmpty`,
  ambiguous: `wifi${kind}SelectionAmbiguous`,
  unknown: (shown) => AppException.badRequest(`unknownWifi${kind}s`, { ids: shown }),
  emptyRegion: () => AppException.field('regionId', `regionHasNoWifi${kind}s`),
  gone: () => AppException.badRequest(`wifi${kind}SelectionEmpty`),
});

const AC: WifiKind = {
  family: AC_FAMILY,
  type: DeviceType.AccessController,
  table: 'wifi_ac',
  columns: AC_COLUMNS,
  from: AC_FROM,
  selection: wording('Ac'),
  snTaken: 'acSnTaken',
  macTaken: 'acMacTaken',
};

const AP: WifiKind = {
  family: AP_FAMILY,
  type: DeviceType.AccessPoint,
  table: 'wifi_ap',
  columns: AP_COLUMNS,
  from: AP_FROM,
  selection: wording('Ap'),
  snTaken: 'apSnTaken',
  macTaken: 'apMacTaken',
};

/** MAC addresses are kept in capitals, so the same address is one value however it was typed. */
const macOf = (mac: string): string => mac.toUpperCase();

/**
 * Wi-Fi access controllers and access points (spec section 3, "Wi-Fi"): their lists, their records (registry devices
 * mounted on poles, an access point under its controller) and their reboot through the command ledger.
 */
@Injectable()
export class WifiDevicesService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly devices: DeviceControlService,
    private readonly credentials: DeviceCredentials,
  ) {}

  acPage(q: AcPageDto): Promise<PageResult<AcRow>> {
    return this.page<AcRow>(AC, q);
  }

  apPage(q: ApPageDto): Promise<PageResult<ApRow>> {
    return this.page<ApRow>(AP, q);
  }

  acDetail(id: number): Promise<AcRow> {
    return this.detail<AcRow>(AC, id);
  }

  apDetail(id: number): Promise<ApRow> {
    return this.detail<ApRow>(AP, id);
  }

  saveAc(caller: Caller, dto: AcAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.save(AC, caller, dto, null);
  }

  saveAp(caller: Caller, dto: ApAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    return this.save(AP, caller, dto, dto.acId);
  }

  async removeAc(id: number): Promise<void> {
    try {
      await removeRegistryDevice(this.db.manager, AC.type, id);
    } catch (err) {
      // Its access points hold it (wifi_ap.ac_id): they are moved or deleted first.
      if (isForeignKeyViolation(err)) throw AppException.conflict('acHasAps');
      throw err;
    }
  }

  removeAp(id: number): Promise<void> {
    return removeRegistryDevice(this.db.manager, AP.type, id);
  }

  rebootAcs(caller: Caller, dto: WifiSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, AC.family, dto, 'reboot', AC.selection, () => ({ params: {} }));
  }

  rebootAps(caller: Caller, dto: WifiSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, AP.family, dto, 'reboot', AP.selection, () => ({ params: {} }));
  }

  private page<T extends object>(kind: WifiKind, q: AcPageDto | ApPageDto): Promise<PageResult<T>> {
    return pagedQuery<T>(this.db, {
      select: kind.columns,
      from: kind.from,
      countFrom: `device d JOIN ${kind.table} w ON w.device_id = d.id`,
      where: wifiDeviceWhere(q),
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  private async detail<T>(kind: WifiKind, id: number): Promise<T> {
    const [row]: T[] = await this.db.query(`SELECT ${kind.columns} FROM ${kind.from} WHERE d.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Adds a device (its registry record with the serial number as its code, and its row; offline until it reports) or
   * changes one. An access point names its controller, which must be one. Changing the serial number (its MQTT
   * identity) needs Edit MQTT besides Edit and hands out a new login.
   */
  private async save(kind: WifiKind, caller: Caller, dto: AcAddOrEditDto, acId: number | null): Promise<{ id: number; mqtt?: MqttCredentials }> {
    const mac = macOf(dto.devMac);
    try {
      return await this.db.transaction(async (tx) => {
        if (acId !== null) {
          const found: unknown[] = await tx.query(`SELECT 1 FROM wifi_ac WHERE device_id = $1 FOR KEY SHARE`, [acId]);
          if (found.length === 0) throw AppException.field('acId', 'acNotFound');
        }
        const saved = await saveRegistryDevice(tx, caller, this.credentials, {
          type: kind.type,
          id: dto.id,
          code: dto.devSN,
          name: dto.devName,
          regionId: dto.regionId,
          poleId: dto.poleId,
          codeField: 'devSN',
        });
        const values = [saved.id, mac, dto.devModel ?? '', dto.devType ?? ''];
        if (kind.table === 'wifi_ac') {
          await tx.query(
            saved.created
              ? `INSERT INTO wifi_ac (device_id, dev_mac, dev_model, dev_type) VALUES ($1, $2, $3, $4)`
              : `UPDATE wifi_ac SET dev_mac = $2, dev_model = $3, dev_type = $4 WHERE device_id = $1`,
            values,
          );
        } else {
          await tx.query(
            saved.created
              ? `INSERT INTO wifi_ap (device_id, dev_mac, dev_model, dev_type, ac_id) VALUES ($1, $2, $3, $4, $5)`
              : `UPDATE wifi_ap SET dev_mac = $2, dev_model = $3, dev_type = $4, ac_id = $5 WHERE device_id = $1`,
            [...values, acId],
          );
        }
        return saved.mqtt ? { id: saved.id, mqtt: saved.mqtt } : { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        if (pgConstraint(err).endsWith('_mac_uq')) throw AppException.taken('devMac', kind.macTaken, { mac });
        throw AppException.taken('devSN', kind.snTaken, { sn: dto.devSN });
      }
      if (isForeignKeyViolation(err)) {
        // The controller, region or pole went between the check and the write.
        throw pgConstraint(err).includes('ac_id') ? AppException.field('acId', 'acNotFound') : AppException.field('poleId', 'poleNotFound');
      }
      throw err;
    }
  }
}
