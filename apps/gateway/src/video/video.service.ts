import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DeviceType, isVideoSubType, rtspAddressOf, type CameraLiveLinks, type CameraRow, type Language, type PageResult } from '@sc/contracts';
import { encryptDeviceSecret } from '@sc/database';
import { translate, type MessageKey } from '@sc/i18n';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import { removeRegistryDevice, saveRegistryDevice } from '../common/registry-device';
import type { Caller } from '../common/request-context';
import { pagedQuery } from '../common/sql';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { networkWord, type ListExportSource } from '../exports/list-export';
import { InjectDb } from '../infra/database';
import { assertPosition } from '../lighting/lighting.service';
import { regionLabelSql } from '../regions/region-label';
import { CAMERA_COLUMNS, CAMERA_FROM, cameraWhere } from './camera-filters';
import type { CameraAddOrEditDto, CameraFiltersDto, CameraPageDto } from './dto/camera.dto';
import { VideoLiveLinks, VideoSnapshotLinks } from './video-links';

/** The equipment list as an xlsx download, filtered as on screen, never with a password. */
export const CAMERA_EXPORT: ListExportSource<CameraFiltersDto> = {
  sheetName: 'video',
  columns: [
    'name',
    'code',
    'videoVendor',
    'videoCategory',
    'videoSubType',
    'IPAddress',
    'rtspPort',
    'videoChannel',
    'rtspUrl',
    'regionName',
    'poleCode',
    'networkStatus',
  ],
  query: (filters, lng: Language) => ({
    select: `d.name, d.code, c.vendor AS "videoVendor", c.category AS "videoCategory", c.sub_type AS "videoSubType", c.ip AS "IPAddress",
      c.rtsp_port AS "rtspPort", c.channel AS "videoChannel", c.rtsp_url AS "rtspUrl", ${regionLabelSql('r', lng)} AS "regionName",
      p.code AS "poleCode", c.network_status AS "networkStatus"`,
    from: CAMERA_FROM,
    where: cameraWhere(filters),
    orderBy: 'd.id',
    id: 'd.id',
  }),
  present: (row, lng) => ({
    ...row,
    networkStatus: networkWord(lng, row.networkStatus),
    videoVendor: translate(lng, `videoVendor${row.videoVendor as number}` as MessageKey),
    videoCategory: translate(lng, `videoCategory${row.videoCategory as number}` as MessageKey),
    videoSubType:
      row.videoSubType === null ? '' : translate(lng, `videoSubType${row.videoCategory as number}_${row.videoSubType as number}` as MessageKey),
  }),
};

/**
 * Video equipment (device type 9, docs/video.md): the list with what the probe found, the records (registry devices
 * on poles, with their vendor, the spec's category and sub-type, where their stream is and its login, the password
 * sealed with the installation's key and never answered), and the signed links of a live view.
 */
@Injectable()
export class VideoService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: DeviceCredentials,
    private readonly liveLinks: VideoLiveLinks,
    private readonly snapshotLinks: VideoSnapshotLinks,
  ) {}

  page(q: CameraPageDto): Promise<PageResult<CameraRow>> {
    return pagedQuery<CameraRow>(this.db, {
      select: CAMERA_COLUMNS,
      from: CAMERA_FROM,
      countFrom: 'device d JOIN camera c ON c.device_id = d.id',
      where: cameraWhere(q),
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: number): Promise<CameraRow> {
    const [row]: CameraRow[] = await this.db.query(`SELECT ${CAMERA_COLUMNS} FROM ${CAMERA_FROM} WHERE d.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /**
   * Adds equipment (its registry record and its row; offline until the probe hears it) or changes it. A password
   * given is sealed; '' removes the kept one; none keeps it, unless the edit points the stream elsewhere (vendor,
   * address, port, channel or RTSP address): the kept password is then dropped, so that whoever may edit a camera
   * cannot send its login to a host of their choosing. Fields left out of an edit keep their values.
   */
  async save(caller: Caller, dto: CameraAddOrEditDto): Promise<{ id: number }> {
    assertPosition(dto.latitude, dto.longitude);
    const subType = dto.subType ?? null;
    if (!isVideoSubType(dto.category, subType)) throw AppException.field('subType', 'videoSubTypeInvalid');
    const password =
      dto.password === undefined ? undefined : dto.password === '' ? null : encryptDeviceSecret(this.config.video.secretKey, dto.password);
    try {
      return await this.db.transaction(async (tx) => {
        const saved = await saveRegistryDevice(tx, caller, this.credentials, {
          type: DeviceType.VideoEquipment,
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
        const values = [
          saved.id,
          dto.vendor,
          dto.category,
          subType,
          dto.ip ?? null,
          dto.rtspPort ?? null,
          dto.channel ?? null,
          dto.rtspUrl ?? null,
          dto.username ?? null,
        ];
        if (saved.created) {
          await tx.query(
            `INSERT INTO camera (device_id, vendor, category, sub_type, ip, rtsp_port, channel, rtsp_url, username, password_enc)
             VALUES ($1, $2, $3, $4, coalesce($5, ''), coalesce($6, 554), coalesce($7, 1), coalesce($8, ''), coalesce($9, ''), $10)`,
            [...values, password ?? null],
          );
        } else {
          await tx.query(
            `UPDATE camera SET vendor = $2, category = $3, sub_type = $4, ip = coalesce($5, ip), rtsp_port = coalesce($6, rtsp_port),
                    channel = coalesce($7, channel), rtsp_url = coalesce($8, rtsp_url), username = coalesce($9, username),
                    -- A login goes only where it was given for: pointed elsewhere, the camera keeps none until one is typed.
                    password_enc = CASE WHEN $10::boolean THEN $11
                                        WHEN (vendor, ip, rtsp_port, channel, rtsp_url) IS DISTINCT FROM
                                             ($2::smallint, coalesce($5, ip), coalesce($6, rtsp_port), coalesce($7, channel), coalesce($8, rtsp_url))
                                        THEN NULL ELSE password_enc END
              WHERE device_id = $1`,
            [...values, password !== undefined, password ?? null],
          );
        }
        const [row]: { vendor: number; ip: string; rtspPort: number; channel: number; rtspUrl: string }[] = await tx.query(
          `SELECT vendor, ip, rtsp_port AS "rtspPort", channel, rtsp_url AS "rtspUrl" FROM camera WHERE device_id = $1`,
          [saved.id],
        );
        // Equipment needs an address, or an RTSP address of its own: without either nothing could reach it.
        if (!rtspAddressOf(row) && !row.ip) throw AppException.field('ip', 'cameraAddressEmpty');
        return { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('code', 'cameraCodeTaken', { code: dto.code });
      if (isForeignKeyViolation(err)) throw AppException.field('poleId', 'poleNotFound');
      throw err;
    }
  }

  remove(id: number): Promise<void> {
    return removeRegistryDevice(this.db.manager, DeviceType.VideoEquipment, id);
  }

  /** The signed links of a camera's live view; refused for equipment whose stream the console cannot find. */
  async live(id: number, now = Date.now()): Promise<CameraLiveLinks> {
    const row = await this.detail(id);
    if (!row.hasStream) throw AppException.badRequest('cameraNoStream');
    const ttl = this.config.video.linkTtlSeconds;
    return { playlist: this.liveLinks.pathOf(id, ttl, now), snapshot: this.snapshotLinks.pathOf(id, ttl, now), expiresIn: ttl };
  }
}
