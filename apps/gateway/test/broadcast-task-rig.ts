import pino from 'pino';
import { DispatchStatus, MediaAuditStatus, type DispatchDetail, type MediaRow } from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { ApiClient, mp3Tone, waitFor } from '@sc/testing';
import { startBroadcastFleet, type BroadcastFleet } from '../../device-sim/src/families/broadcast.sim';
import { MQTT_URL, startTestBroadcastWorker } from './broadcast-worker';
import { startTestGateway, type TestGateway } from './harness';

/**
 * What the broadcast task tests run on: a gateway, the broadcast worker and simulated terminals (`codes`, added as
 * terminals named `<name> 1`, `<name> 2`, …) that download their media from the gateway's signed links.
 */
export interface BroadcastTaskRig {
  gw: TestGateway;
  worker: DeviceWorker;
  fleet: BroadcastFleet;
  admin: ApiClient;
  editor: ApiClient;
  /** The terminals' device ids, in the order of the codes. */
  ids: number[];
  /** Uploads a tone of `seconds` as an MP3 named `name`, approved unless told. */
  upload(seconds: number, frequency: number, name: string, options?: { approve?: boolean }): Promise<MediaRow>;
  /** How many tasks and dispatches are recorded. */
  counts(): Promise<{ tasks: number; dispatches: number }>;
  /** Waits for a dispatch to end all successful. */
  delivered(dispatchId: string): Promise<DispatchDetail>;
  stop(): Promise<void>;
}

export async function startBroadcastTaskRig(label: string, codes: readonly string[], name: string, ipPrefix: string): Promise<BroadcastTaskRig> {
  const gw = await startTestGateway();
  // The terminals fetch their media from the links the gateway signs, under the console's address (MEDIA_LINK_BASE_URL,
  // read at each signing): this gateway's, known once it listens.
  gw.config.media.linkBaseUrl = gw.baseUrl;
  const [admin, editor] = await Promise.all([gw.signedIn('admin'), gw.signedIn('editor')]);
  const ids: number[] = [];
  for (const [i, code] of codes.entries()) {
    const answer = await admin.post<{ id: number }>('/api/broadcast/terminalAddOrEdit', {
      terminalName: `${name} ${i + 1}`,
      terminalId: code,
      terminalIP: `${ipPrefix}.${i + 1}`,
    });
    expect(answer.body).toMatchObject({ code: 200 });
    ids.push(answer.body.data.id);
  }
  const worker = await startTestBroadcastWorker(gw, label);
  const fleet = await startBroadcastFleet({
    mqttUrl: MQTT_URL,
    terminals: [...codes],
    ackLatencyMs: { min: 5, max: 20 },
    scheduleTickMs: 100,
    logger: pino({ level: 'silent' }),
  });
  const count = async (table: string) => (await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0].n;
  return {
    gw,
    worker,
    fleet,
    admin,
    editor,
    ids,
    async upload(seconds, frequency, materialName, { approve = true } = {}) {
      const data = new FormData();
      data.append('materialName', materialName);
      data.append('file', new Blob([await mp3Tone({ seconds, frequency, kbps: 64, sampleRate: 44100, channels: 1 })]), `${materialName}.mp3`);
      const answer = await new ApiClient(gw.uploadUrl, 'en-US').as(admin.token).post<MediaRow>('/api/broadcast/mediaUpload', data);
      expect(answer.status).toBe(200);
      if (approve) await admin.post('/api/broadcast/mediaAudit', { id: answer.body.data.id, auditStatus: MediaAuditStatus.Approved });
      return answer.body.data;
    },
    counts: async () => ({ tasks: await count('broadcast_task'), dispatches: await count('dispatch') }),
    delivered: (dispatchId) =>
      waitFor(async () => {
        const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
        return d.status === DispatchStatus.AllSuccessful ? d : undefined;
      }, 10_000),
    async stop() {
      await fleet.stop({ clearRetained: true });
      await worker.stop();
      await gw.close();
    },
  };
}
