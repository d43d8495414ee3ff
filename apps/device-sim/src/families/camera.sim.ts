import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { DeviceType } from '@sc/contracts';
import { decryptDeviceSecret } from '@sc/database';
import { withClient } from '../kit/plan';
import { RtspCameraServer } from '../kit/rtsp-cameras';

// Cameras: the registry's cameras whose RTSP address is this simulator's, each a live picture drawn on demand (its
// name and the time burned in) behind the login the registry keeps for it, as a real camera would ask for it. The
// console learns they are up by asking them (its probe), as it does real ones: cameras speak no MQTT.

/** One camera as the simulator plays it. */
export interface SimulatedCamera {
  code: string;
  name: string;
  /** Its path on the simulator's RTSP port. */
  path: string;
  username: string;
  password: string;
}

export interface CameraFleetOptions {
  databaseUrl: string;
  /** The RTSP port the registry's demo cameras point at (VIDEO_SIM_RTSP_PORT, 8554 by default). */
  port: number;
  /** The installation's key (DEVICE_SECRET_KEY): the simulator opens the stored logins as the video worker does. */
  secretKey: string;
  /** Cameras that do not answer at all (dead devices), chosen once. */
  offlineFraction?: number;
  /** How often the registry is read again, so that cameras added or removed in the console follow. */
  refreshMs?: number;
  logger: Logger;
}

export interface CameraFleet {
  readonly codes: readonly string[];
  readonly url: string;
  stats(): { cameras: number; sources: number; clients: number };
  stop(): Promise<void>;
}

/** The registry's cameras whose RTSP address is at `127.0.0.1:port` or `localhost:port`. */
export function loadSimulatedCameras(databaseUrl: string, port: number, secretKey: string): Promise<SimulatedCamera[]> {
  return withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ code: string; name: string; url: string; username: string; passwordEnc: string | null }>(
      `SELECT d.code, d.name, c.rtsp_url AS url, c.username, c.password_enc AS "passwordEnc"
         FROM device d JOIN camera c ON c.device_id = d.id
        WHERE d.type = $1 AND (c.rtsp_url LIKE $2 OR c.rtsp_url LIKE $3) ORDER BY d.code`,
      [DeviceType.VideoEquipment, `rtsp://127.0.0.1:${port}/%`, `rtsp://localhost:${port}/%`],
    );
    return rows.map((r) => ({
      code: r.code,
      name: r.name,
      path: decodeURIComponent(new URL(r.url).pathname.slice(1)),
      username: r.username,
      password: r.passwordEnc ? (decryptDeviceSecret(secretKey, r.passwordEnc) ?? '') : '',
    }));
  });
}

/** Whether a camera is one of the dead ones: a stable pick by its code, so a restart keeps the same ones dead. */
export function isDeadCamera(code: string, fraction: number): boolean {
  return createHash('sha1').update(code).digest().readUInt32BE(0) / 2 ** 32 < fraction;
}

/** Plays the registry's cameras on one RTSP port until stopped. */
export async function startCameraFleet(o: CameraFleetOptions): Promise<CameraFleet> {
  const server = await RtspCameraServer.start({ port: o.port });
  const playing = new Map<string, SimulatedCamera>();
  const online = new Map<string, boolean>();
  const show = (camera: SimulatedCamera) =>
    server.setCamera(camera.path, {
      title: camera.name,
      username: camera.username,
      password: camera.password,
      online: online.get(camera.code) ?? true,
    });
  const refresh = async () => {
    const cameras = await loadSimulatedCameras(o.databaseUrl, o.port, o.secretKey);
    const now = new Set(cameras.map((c) => c.code));
    for (const [code, camera] of playing) {
      if (!now.has(code)) {
        server.removeCamera(camera.path);
        playing.delete(code);
      }
    }
    for (const camera of cameras) {
      if (!online.has(camera.code)) online.set(camera.code, !isDeadCamera(camera.code, o.offlineFraction ?? 0));
      const before = playing.get(camera.code);
      if (before && before.path !== camera.path) server.removeCamera(before.path);
      playing.set(camera.code, camera);
      show(camera);
    }
  };
  try {
    await refresh();
  } catch (err) {
    await server.stop();
    throw err;
  }
  const timer = setInterval(
    () => refresh().catch((err: Error) => o.logger.warn({ err: err.message }, 'camera list not read')),
    o.refreshMs ?? 10_000,
  );
  timer.unref();
  o.logger.info({ cameras: playing.size, url: server.url }, 'simulated cameras streaming on demand');
  return {
    get codes() {
      return [...playing.keys()];
    },
    url: server.url,
    stats: () => server.stats(),
    async stop() {
      clearInterval(timer);
      await server.stop();
    },
  };
}
