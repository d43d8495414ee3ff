import { Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { DeviceType, type MqttCredentials, type PageResult, type RadarLampOption, type RadarRow } from '@sc/contracts';
import { DeviceCredentials } from '../broker-access/device-credentials.service';
import { AppException } from '../common/app-exception';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import { removeRegistryDevice, saveRegistryDevice } from '../common/registry-device';
import type { Caller } from '../common/request-context';
import { likeContains, pagedQuery } from '../common/sql';
import { InjectDb } from '../infra/database';
import type { RadarAddOrEditDto, RadarPageDto } from './dto/radar.dto';
import { RADAR_FROM, radarWhere } from './radar-filters';

const RADAR_COLUMNS = `d.id, d.name AS "radarName", d.code, d.region_id AS "regionId", r.region_name AS "regionName",
  d.pole_id AS "poleId", p.code AS "poleCode", p.name AS "poleName", t.network_status AS "networkStatus", t.count,
  t.radar_rate AS "radarRate", t.swver, t.hwver, t.mac, t.rssi, t.reported_at AS "reportedAt", t.last_detection_at AS "lastDetectionAt",
  ARRAY(SELECT g.name FROM radar_group_radar m JOIN radar_group g ON g.id = m.group_id WHERE m.device_id = d.id ORDER BY lower(g.name)) AS "groupNames"`;

/**
 * Radar terminals (spec section 3, "Radar"): the list with their live fields, their records (registry devices of
 * type 5, mounted on poles). Their count, rate, versions, MAC and RSSI come from the radars (the radar worker).
 */
@Injectable()
export class RadarService {
  constructor(
    @InjectDb() private readonly db: DataSource,
    private readonly credentials: DeviceCredentials,
  ) {}

  page(q: RadarPageDto): Promise<PageResult<RadarRow>> {
    return pagedQuery<RadarRow>(this.db, {
      select: RADAR_COLUMNS,
      from: RADAR_FROM,
      countFrom: 'device d JOIN radar_terminal t ON t.device_id = d.id',
      where: radarWhere(q),
      orderBy: 'd.id',
      outerOrderBy: 'page.id',
      pageNum: q.pageNum,
      pageSize: q.pageSize,
    });
  }

  async detail(id: number): Promise<RadarRow> {
    const [row]: RadarRow[] = await this.db.query(`SELECT ${RADAR_COLUMNS} FROM ${RADAR_FROM} WHERE d.id = $1`, [id]);
    if (!row) throw AppException.notFound();
    return row;
  }

  /** Adds a radar (its device record, type radar, and its row; offline until it reports) or changes one. */
  async save(caller: Caller, dto: RadarAddOrEditDto): Promise<{ id: number; mqtt?: MqttCredentials }> {
    try {
      return await this.db.transaction(async (tx) => {
        const saved = await saveRegistryDevice(tx, caller, this.credentials, {
          type: DeviceType.Radar,
          id: dto.id,
          code: dto.code,
          name: dto.radarName,
          regionId: dto.regionId,
          poleId: dto.poleId,
          codeField: 'code',
        });
        if (saved.created) await tx.query(`INSERT INTO radar_terminal (device_id) VALUES ($1)`, [saved.id]);
        return saved.mqtt ? { id: saved.id, mqtt: saved.mqtt } : { id: saved.id };
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppException.taken('code', 'radarCodeTaken', { code: dto.code });
      // The region or pole went between the check and the write.
      if (isForeignKeyViolation(err)) throw AppException.field('poleId', 'poleNotFound');
      throw err;
    }
  }

  remove(id: number): Promise<void> {
    return removeRegistryDevice(this.db.manager, DeviceType.Radar, id);
  }

  /** Lamps for the group form, by part of their name or code, at most `limit`. */
  lampOptions(keyword: string | undefined, limit = 50): Promise<RadarLampOption[]> {
    return this.db.query(
      `SELECT d.id, d.code, d.name FROM device d JOIN lamp l ON l.device_id = d.id
        WHERE $1::text IS NULL OR lower(d.name || chr(1) || d.code) LIKE $1
        ORDER BY d.code LIMIT $2`,
      [keyword ? likeContains(keyword) : null, limit],
    );
  }
}
