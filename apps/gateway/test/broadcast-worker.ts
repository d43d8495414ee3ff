import pino from 'pino';
import { MediaAuditStatus, MqttService, type MediaRow } from '@sc/contracts';
import { loadRuntimeConfig, startDeviceWorker, type DeviceWorker } from '@sc/device-runtime';
import { serviceMqttLogin } from '@sc/messaging';
import { ApiClient, mp3Tone } from '@sc/testing';
import { startBroadcastFleet, type BroadcastFleet } from '../../device-sim/src/families/broadcast.sim';
import { BROADCAST_FAMILIES, BROADCAST_OBSERVERS } from '../../worker-broadcast/src/broadcast-worker';
import { startTestGateway, type TestGateway } from './harness';

export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** The broadcast worker in this process, on the test gateway's database and Redis, with quick ledger timings. */
export function startTestBroadcastWorker(gw: TestGateway, label: string, timings: { ackTimeoutMs?: number } = {}): Promise<DeviceWorker> {
  return startDeviceWorker({
    name: 'broadcast',
    families: BROADCAST_FAMILIES,
    observers: BROADCAST_OBSERVERS(),
    config: {
      ...loadRuntimeConfig('broadcast', {}),
      databaseUrl: gw.db.url,
      redisUrl: gw.config.redisUrl,
      mqttUrl: MQTT_URL,
      mqttLogin: serviceMqttLogin(MqttService.WorkerBroadcast),
      redisPrefix: gw.config.redisPrefix,
      intakeGroup: `test-${label}-${gw.config.redisPrefix.replace(/\W/g, '')}`,
      ackTimeoutMs: 1000,
      trackerIntervalMs: 100,
      progressIntervalMs: 50,
      ...timings,
    },
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  });
}

/** The scene of the broadcast task tests: terminals added through the API, the broadcast worker, and the simulated terminals. */
export interface TaskScene {
  gw: TestGateway;
  admin: ApiClient;
  editor: ApiClient;
  /** The terminals' device ids, in the order of their codes. */
  ids: number[];
  worker: DeviceWorker;
  fleet: BroadcastFleet;
  /** Uploads an MP3 tone through the upload port (approved unless told), as the library keeps it. */
  upload(name: string, seconds: number, frequency: number, approved?: boolean): Promise<MediaRow>;
  /** Tasks and dispatches recorded (a refused request changes neither). */
  counts(): Promise<{ tasks: number; dispatches: number }>;
  stop(): Promise<void>;
}

/**
 * A gateway whose signed media links the simulated terminals can fetch, `codes` added as terminals, the broadcast
 * worker and the terminals connected (they look at their clock every 100 ms).
 */
export async function startTaskScene(codes: readonly string[], label: string, ipPrefix: string): Promise<TaskScene> {
  const gw = await startTestGateway();
  // The terminals fetch their media from the links the gateway signs, under the console's address (MEDIA_LINK_BASE_URL,
  // read at each signing): this gateway's, known once it listens.
  gw.config.media.linkBaseUrl = gw.baseUrl;
  const [admin, editor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor')]);
  const ids: number[] = [];
  for (const [i, code] of codes.entries()) {
    const answer = await admin.post<{ id: number }>('/api/broadcast/terminalAddOrEdit', {
      terminalName: `Task terminal ${i + 1}`,
      terminalId: code,
      terminalIP: `${ipPrefix}.${i + 1}`,
    });
    if (answer.body.code !== 200) throw new Error(`terminal ${code} not added: ${answer.body.message}`);
    ids.push(answer.body.data.id);
  }
  const worker = await startTestBroadcastWorker(gw, label);
  const fleet = await startBroadcastFleet({
    mqttUrl: MQTT_URL,
    terminals: codes,
    ackLatencyMs: { min: 5, max: 20 },
    scheduleTickMs: 100,
    logger: pino({ level: 'silent' }),
  });
  const count = async (table: string) => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  return {
    gw,
    admin,
    editor,
    ids,
    worker,
    fleet,
    async upload(name, seconds, frequency, approved = true) {
      const data = new FormData();
      data.append('materialName', name);
      data.append('file', new Blob([await mp3Tone({ seconds, frequency, kbps: 64, sampleRate: 44100, channels: 1 })]), `${name}.mp3`);
      const answer = await new ApiClient(gw.uploadUrl, 'en-US').as(admin.token).post<MediaRow>('/api/broadcast/mediaUpload', data);
      if (answer.status !== 200) throw new Error(`upload of ${name} refused: ${answer.body.message}`);
      if (approved) await admin.post('/api/broadcast/mediaAudit', { id: answer.body.data.id, auditStatus: MediaAuditStatus.Approved });
      return answer.body.data;
    },
    counts: async () => ({ tasks: await count('broadcast_task'), dispatches: await count('dispatch') }),
    async stop() {
      await fleet.stop({ clearRetained: true });
      await worker.stop();
      await gw.close();
    },
  };
}
