import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import {
  ALARM_FAMILY,
  BroadcastContentType,
  DeviceType,
  type AlarmAnnounceParams,
  type AlarmColumnRow,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { MediaLinks } from '../broadcast/media-links';
import { MediaService } from '../broadcast/media.service';
import { DispatchRenewals } from '../dispatch/dispatch-renewals';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation, pgConstraint } from '../common/pg-errors';
import { removeRegistryDevice, saveRegistryDevice } from '../common/registry-device';
import type { Caller } from '../common/request-context';
import { pagedQuery } from '../common/sql';
import { DeviceControlService, type SelectionWording } from '../dispatch/device-control.service';
import { InjectDb } from '../infra/database';
import { assertPosition } from '../lighting/lighting.service';
import { ALARM_COLUMN_COLUMNS, ALARM_COLUMN_FROM, alarmColumnWhere } from './alarm-column-filters';
import type {
  AlarmAnnounceDto,
  AlarmColumnAddOrEditDto,
  AlarmColumnPageDto,
  AlarmColumnSelectionDto,
  AlarmColumnVolumeDto,
} from './dto/alarm-column.dto';

const SELECTION: SelectionWording = {
  empty: 'alarmSelectionEmpty',
  ambiguous: 'alarmSelectionAmbiguous',
  unknown: (shown) => AppException.badRequest('unknownAlarmColumns', { ids: shown }),
  emptyRegion: () => AppException.field('regionId', 'regionHasNoAlarmColumns'),
  gone: () => AppException.badRequest('alarmSelectionEmpty'),
};

/**
 * One-key alarm columns (device type 7, docs/alarm-columns.md): the list with what they report, their records
 * (registry devices mounted on poles, with a SIP account and an optional position of their own), and their reboot
 * and volume through the command ledger.
 */
@Injectable()
export class AlarmColumnsService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly devices: DeviceControlService,
    private readonly credentials: DeviceCredentials,
    private readonly media: MediaService,
    mediaLinks: MediaLinks,
    renewals: DispatchRenewals,
  ) {
    // A retry of an announcement sends its media with fresh links.
    renewals.register<AlarmAnnounceParams>(ALARM_FAMILY.family, 'announce', (params, now) => ({
      ...params,
      ...(params.items && {
        items: params.items.map((item) => ({
          ...item,
          url: mediaLinks.forDevice({ id: item.mediaId, sha256: item.sha256, fileSize: item.bytes }, now).url,
        })),
      }),
    }));
  }

  page(q: AlarmColumnPageDto): Promise<PageResult<AlarmColumnRow>> {
    return pagedQuery<AlarmColumnRow>(this.db, {
      select: ALARM_COLUMN_COLUMNS,
      from: ALARM_COLUMN_FROM,
      countFrom: 'device d JOIN alarm_column a ON a.device_id = d.id',
      where: alarmColumnWhere(q),
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: number): Promise<AlarmColumnRow> {
    const [row]: AlarmColumnRow[] = await this.db.query(`SELECT ${ALARM_COLUMN_COLUMNS} FROM ${ALARM_COLUMN_FROM} WHERE d.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Adds a column (its registry record with the serial number as its code, and its row; offline until it reports) or
   * changes one. Changing the code (its MQTT identity) needs Edit MQTT besides Edit and hands out a new login.
   */
  async save(caller: Caller, dto: AlarmColumnAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    assertPosition(dto.latitude, dto.longitude);
    const sip = dto.sipAccount ?? '';
    try {
      return await this.db.transaction(async (tx) => {
        const saved = await saveRegistryDevice(tx, caller, this.credentials, {
          type: DeviceType.OneKeyAlarm,
          id: dto.id,
          code: dto.code,
          name: dto.name,
          regionId: dto.regionId,
          poleId: dto.poleId,
          codeField: 'code',
        });
        if (dto.latitude !== undefined) {
          await tx.query(`UPDATE device SET latitude = $2, longitude = $3 WHERE id = $1`, [saved.id, dto.latitude, dto.longitude]);
        }
        await tx.query(
          saved.created
            ? `INSERT INTO alarm_column (device_id, sip_account) VALUES ($1, $2)`
            : // An edit that leaves the SIP account out keeps it.
              `UPDATE alarm_column SET sip_account = CASE WHEN $3::boolean THEN $2 ELSE sip_account END WHERE device_id = $1`,
          saved.created ? [saved.id, sip] : [saved.id, sip, dto.sipAccount !== undefined],
        );
        return saved.mqtt ? { id: saved.id, mqtt: saved.mqtt } : { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        if (pgConstraint(err) === 'alarm_column_sip_uq') throw AppException.taken('sipAccount', 'sipAccountTaken', { sip });
        throw AppException.taken('code', 'alarmCodeTaken', { code: dto.code });
      }
      // The region or pole went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('poleId', 'poleNotFound');
      throw err;
    }
  }

  remove(id: number): Promise<void> {
    return removeRegistryDevice(this.db.manager, DeviceType.OneKeyAlarm, id);
  }

  reboot(caller: Caller, dto: AlarmColumnSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, ALARM_FAMILY, dto, 'reboot', SELECTION, () => ({ params: {} }));
  }

  /**
   * An announcement on the columns' speakers: approved media of the broadcast library with their devices' links, or a
   * text; checked before anything is written (an empty choice, unknown or unapproved media refuse it).
   */
  announce(caller: Caller, dto: AlarmAnnounceDto): Promise<LampControlResult> {
    const audio = dto.contentType === BroadcastContentType.Audio;
    if (audio && !dto.mediaIds?.length) throw AppException.field('mediaIds', 'announceMediaEmpty');
    if (!audio && !dto.text) throw AppException.field('text', 'announceTextEmpty');
    return this.devices.dispatch(caller, ALARM_FAMILY, dto, 'announce', SELECTION, async (tx) => {
      const params: AlarmAnnounceParams = audio
        ? {
            contentType: dto.contentType,
            mode: dto.playbackMode,
            items: (await this.media.playableMedia(tx, dto.mediaIds!)).map(({ mediaId, title, url, sha256, bytes, durationMs }) => ({
              mediaId,
              title,
              url,
              sha256,
              bytes,
              durationMs,
            })),
          }
        : { contentType: dto.contentType, mode: dto.playbackMode, text: dto.text };
      return { params: params as unknown as Record<string, unknown> };
    });
  }

  stopAnnounce(caller: Caller, dto: AlarmColumnSelectionDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, ALARM_FAMILY, dto, 'stopAnnounce', SELECTION, () => ({ params: {} }));
  }

  volume(caller: Caller, dto: AlarmColumnVolumeDto): Promise<LampControlResult> {
    return this.devices.dispatch(caller, ALARM_FAMILY, dto, 'volume', SELECTION, () => ({
      params: { volume: dto.volume },
    }));
  }
}
