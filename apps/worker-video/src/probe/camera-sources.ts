import type { Pool } from 'pg';
import { DeviceType, rtspAddressOf, type VideoVendor } from '@sc/contracts';
import { decryptDeviceSecret } from '@sc/database';

/** Where a camera's stream is, with its login (decrypted): what a player or the probe needs. */
export interface CameraSource {
  id: number;
  /** The RTSP address without credentials; null when the console does not know where its stream is. */
  url: string | null;
  username: string;
  /** Null when none is kept, or when the kept one was not sealed with this installation's key. */
  password: string | null;
}

interface SourceRow {
  id: number;
  vendor: VideoVendor;
  ip: string;
  rtspPort: number;
  channel: number;
  rtspUrl: string;
  username: string;
  passwordEnc: string | null;
}

const SOURCE_COLUMNS = `d.id, c.vendor, c.ip, c.rtsp_port AS "rtspPort", c.channel, c.rtsp_url AS "rtspUrl", c.username,
  c.password_enc AS "passwordEnc"`;

/** The video equipment's stream addresses and logins, read from the registry and `camera`. */
export class CameraSources {
  /** `shard`: this worker's share of the cameras (ids modulo `of` equal to `index`), as the gateway routes their streams. */
  constructor(
    private readonly pool: Pool,
    private readonly secretKey: string,
    private readonly shard: { index: number; of: number } = { index: 0, of: 1 },
  ) {}

  async byId(id: number): Promise<CameraSource | null> {
    const { rows } = await this.pool.query<SourceRow>(
      `SELECT ${SOURCE_COLUMNS} FROM device d JOIN camera c ON c.device_id = d.id WHERE d.id = $1 AND d.type = $2`,
      [id, DeviceType.VideoEquipment],
    );
    return rows[0] ? this.sourceOf(rows[0]) : null;
  }

  /** This worker's cameras, a page at a time in id order (the probe walks them). */
  async page(afterId: number, limit: number): Promise<CameraSource[]> {
    const { rows } = await this.pool.query<SourceRow>(
      `SELECT ${SOURCE_COLUMNS} FROM device d JOIN camera c ON c.device_id = d.id
        WHERE d.type = $1 AND d.id > $2 AND d.id % $4 = $5 ORDER BY d.id LIMIT $3`,
      [DeviceType.VideoEquipment, afterId, limit, this.shard.of, this.shard.index],
    );
    return rows.map((row) => this.sourceOf(row));
  }

  private sourceOf(row: SourceRow): CameraSource {
    return {
      id: row.id,
      url: rtspAddressOf(row),
      username: row.username,
      password: row.passwordEnc ? decryptDeviceSecret(this.secretKey, row.passwordEnc) : null,
    };
  }
}
