import { tmpdir } from 'node:os';
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { CAMERA_FAMILY } from '@sc/contracts';
import { deviceSecretKey } from '@sc/database';
import { createPool, envNumber, startDeviceWorker, type AnyFamilyHandler, type DeviceWorker, type RuntimeConfig } from '@sc/device-runtime';
import { cameraHandler } from './families/camera.handler';
import { CameraProbe } from './probe/camera-probe';
import { CameraSources } from './probe/camera-sources';
import { LiveStreams } from './streams/live-streams';
import { createStreamServer } from './streams/stream-server';

const DIR_PREFIX = 'smart-city-video-';

/**
 * Removes the segment directories that video workers on this machine left behind when they ended without stopping
 * (their process is gone): the default directory is per process, so nothing of a running worker's is touched.
 */
async function removeStaleDirectories(dir: string, logger: Logger): Promise<void> {
  const parent = dirname(dir);
  const entries = await readdir(parent).catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = Number(entry.slice(DIR_PREFIX.length));
    if (!entry.startsWith(DIR_PREFIX) || !Number.isInteger(pid) || pid === process.pid || alive(pid)) continue;
    await rm(join(parent, entry), { recursive: true, force: true });
    logger.info({ dir: join(parent, entry) }, 'removed the segments of a video worker that ended without stopping');
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The families the video worker serves: its video equipment. */
export const VIDEO_FAMILIES: readonly AnyFamilyHandler[] = [cameraHandler];

/** The video worker's own settings (docs/video.md), beside the runtime's. */
export interface VideoSettings {
  /** The live streams' port (VIDEO_HTTP_PORT) and address (VIDEO_HTTP_HOST): the gateway's way in, not the browsers'. */
  httpPort: number;
  httpHost: string;
  /** Where the streams' segments are written (VIDEO_DIR); a directory of the process's own under the system's temp by default. */
  dir: string;
  ffmpegPath: string;
  /** Streams transcoded at once (VIDEO_MAX_STREAMS); viewers of one camera share its stream. */
  maxStreams: number;
  /** A stream nobody has asked for in this long stops (VIDEO_IDLE_STOP_MS). */
  idleStopMs: number;
  probe: { intervalMs: number; timeoutMs: number; concurrency: number };
  /**
   * This worker's share of the cameras when several run (VIDEO_SHARDS, and VIDEO_SHARD_INDEX or the ordinal at the end
   * of the host name, as a StatefulSet names its pods): it probes and streams the cameras whose id modulo VIDEO_SHARDS
   * is its index, the gateway asking it for exactly those (VIDEO_SERVICE_URLS in the same order).
   */
  shard: { index: number; of: number };
}

/**
 * This worker's shard: VIDEO_SHARD_INDEX, else the host name's ordinal (`worker-video-1`), of VIDEO_SHARDS. With
 * several shards and neither, start-up stops: every replica would take the first shard and the others' cameras none.
 */
export function shardOf(env: NodeJS.ProcessEnv): { index: number; of: number } {
  const of = Math.max(1, Math.floor(envNumber(env.VIDEO_SHARDS, 1)));
  const ordinal = /-(\d+)$/.exec(env.HOSTNAME ?? '')?.[1];
  if (of > 1 && !env.VIDEO_SHARD_INDEX && ordinal === undefined)
    throw new Error(`VIDEO_SHARDS is ${of}: set VIDEO_SHARD_INDEX, or run the workers as a StatefulSet (host names ending in their ordinal)`);
  const index = envNumber(env.VIDEO_SHARD_INDEX, of > 1 && ordinal !== undefined ? Number(ordinal) : 0);
  if (!Number.isInteger(index) || index < 0 || index >= of) throw new Error(`VIDEO_SHARD_INDEX must be 0 to ${of - 1}, not ${index}`);
  return { index, of };
}

export function loadVideoSettings(env: NodeJS.ProcessEnv = process.env): VideoSettings {
  return {
    httpPort: envNumber(env.VIDEO_HTTP_PORT, 8095),
    httpHost: env.VIDEO_HTTP_HOST ?? '127.0.0.1',
    dir: env.VIDEO_DIR ?? join(tmpdir(), `${DIR_PREFIX}${process.pid}`),
    ffmpegPath: env.FFMPEG_PATH ?? 'ffmpeg',
    maxStreams: envNumber(env.VIDEO_MAX_STREAMS, 64),
    idleStopMs: envNumber(env.VIDEO_IDLE_STOP_MS, 20_000),
    probe: {
      intervalMs: envNumber(env.VIDEO_PROBE_INTERVAL_MS, 30_000),
      timeoutMs: envNumber(env.VIDEO_PROBE_TIMEOUT_MS, 3_000),
      concurrency: envNumber(env.VIDEO_PROBE_CONCURRENCY, 64),
    },
    shard: shardOf(env),
  };
}

/**
 * The video worker: video equipment on the device runtime, its online state from a probe of every camera (most speak
 * only RTSP), and the live streams the browsers watch (RTSP to HLS on demand, one transcoder per camera however many
 * watch, stopped when nobody does), served to the gateway on VIDEO_HTTP_PORT.
 */
export async function startVideoWorker(config: RuntimeConfig, logger: Logger, settings = loadVideoSettings()): Promise<DeviceWorker> {
  const pool = createPool(config.databaseUrl, 4);
  const key = deviceSecretKey();
  if (key.isDefault) logger.warn('DEVICE_SECRET_KEY is not set: camera logins are sealed with the development key (docs/video.md)');
  const sources = new CameraSources(pool, key.key, settings.shard);
  const streams = new LiveStreams({
    dir: settings.dir,
    ffmpegPath: settings.ffmpegPath,
    maxStreams: settings.maxStreams,
    idleStopMs: settings.idleStopMs,
    logger,
    resolve: async (id) => {
      const source = await sources.byId(id);
      return source?.url ? { url: source.url, username: source.username || null, password: source.password } : null;
    },
  });
  // However the process ends, no transcoder outlives it holding a camera's connection.
  const killAll = () => streams.killAll();
  process.once('exit', killAll);
  let probe: CameraProbe | null = null;
  let server: { close(): Promise<void> } | null = null;
  let ended: Promise<void> | null = null;
  const stopping = () =>
    (ended ??= (async () => {
      await probe?.stop();
      await server?.close();
      await streams.stop();
    })());
  const release = async () => {
    await stopping();
    process.off('exit', killAll);
    await pool.end().catch(() => undefined);
  };
  try {
    await removeStaleDirectories(settings.dir, logger);
    server = await createStreamServer(streams, { port: settings.httpPort, host: settings.httpHost, logger });
    const worker = await startDeviceWorker({ name: 'video', families: VIDEO_FAMILIES, config, logger, onStopping: stopping, onStopped: release });
    probe = new CameraProbe(sources, (id, state) => worker.observeState(CAMERA_FAMILY.family, id, state), settings.probe, logger);
    probe.start();
    return worker;
  } catch (err) {
    await release();
    throw err;
  }
}
