import pino from 'pino';
import type { Socket } from 'socket.io-client';
import {
  DeviceFamily,
  DispatchStatus,
  MqttService,
  OnlineState,
  ScreenOrientation,
  type ClientToServerEvents,
  type DeviceStateChangedEvent,
  type DispatchDetail,
  type LampControlResult,
  type PageResult,
  type ServerToClientEvents,
  type SignageDeviceRow,
} from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startSignageFleet, type SignageFleet } from '../../device-sim/src/families/signage.sim';
import { SIGNAGE_FAMILIES, SIGNAGE_OBSERVERS } from '../../worker-signage/src/signage-worker';
import { MQTT_URL, startTestWorker, watchFamily } from './device-worker';
import { startTestGateway, type TestGateway } from './harness';

const PLACED = { cMark: 'CM', address: 'Station hall', latitude: 22.5, longitude: 114.1 };

/** Gateway, the floor-screen worker and simulated players on the real PostgreSQL, Redis and broker. */
describe('floor screens end to end: live state, volume, mute and reboot through the ledger', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  let worker: DeviceWorker;
  let fleet: SignageFleet;
  let socket: Socket<ServerToClientEvents, ClientToServerEvents>;
  const ids: number[] = [];
  const seen: DeviceStateChangedEvent[] = [];

  const page = async () => (await editor.post<PageResult<SignageDeviceRow>>('/api/signage/devicePage', { pageNum: 1, pageSize: 50 })).body.data.list;
  const finished = (dispatchId: string) =>
    waitFor(async () => {
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
      return d.status === DispatchStatus.AllSuccessful ? d : undefined;
    }, 10_000);
  const changesOf = (code: string) => seen.flatMap((e) => (e.family === DeviceFamily.Signage ? e.changes : [])).filter((c) => c.deviceCode === code);

  beforeAll(async () => {
    gw = await startTestGateway();
    editor = await gw.signedIn('editor');
    for (const [code, orientation] of [
      ['FSE-1', ScreenOrientation.Portrait],
      ['FSE-2', ScreenOrientation.Landscape],
    ] as const) {
      const answer = await editor.post<{ id: number }>('/api/signage/deviceAddOrEdit', { name: `Screen ${code}`, code, orientation, ...PLACED });
      ids.push(answer.body.data.id);
    }
    worker = await startTestWorker(
      gw,
      { name: 'signage', service: MqttService.WorkerSignage, families: SIGNAGE_FAMILIES, observers: SIGNAGE_OBSERVERS() },
      'signage',
      {
        ackTimeoutMs: 500,
      },
    );
    socket = await watchFamily(gw, editor.token, DeviceFamily.Signage);
    socket.on('DeviceStateChanged', (event) => seen.push(event));
    fleet = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: [
        { code: 'FSE-1', record: { name: 'Screen FSE-1', orientation: ScreenOrientation.Portrait } },
        { code: 'FSE-2', record: { name: 'Screen FSE-2', orientation: ScreenOrientation.Landscape } },
      ],
      ackLatencyMs: { min: 5, max: 20 },
      logger: pino({ level: 'silent' }),
    });
  });
  afterAll(async () => {
    socket?.close();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.close();
  });

  it('shows the players online with what they report, pushed live to a watching socket', async () => {
    const rows = await waitFor(async () => {
      const list = await page();
      return list.every((d) => d.networkStatus === OnlineState.Online) ? list : undefined;
    }, 5000);
    expect(rows.map((d) => [d.code, d.orientation, d.resolution])).toEqual([
      ['FSE-1', '9:16', '1080x1920'],
      ['FSE-2', '16:9', '1920x1080'],
    ]);
    await waitFor(() => (changesOf('FSE-2').some((c) => c.changed.networkStatus === OnlineState.Online) ? true : undefined), 2000);
  });

  it('sets the volume, mutes and unmutes: the players take it, the rows and the socket follow', async () => {
    const volume = await editor.post<LampControlResult>('/api/signage/volume', { ids, volume: 80 });
    expect((await finished(volume.body.data.dispatchId)).counts.delivered).toBe(2);
    expect(fleet.player('FSE-1')).toMatchObject({ volume: 80 });
    await waitFor(() => (changesOf('FSE-1').some((c) => c.changed.volume === 80) ? true : undefined), 2000);
    await finished((await editor.post<LampControlResult>('/api/signage/mute', { ids: [ids[1]] })).body.data.dispatchId);
    expect(fleet.player('FSE-2')).toMatchObject({ muted: true, volume: 80 });
    await waitFor(async () => ((await page())[1].muted ? true : undefined), 2000);
    await finished((await editor.post<LampControlResult>('/api/signage/unmute', { ids: [ids[1]] })).body.data.dispatchId);
    await waitFor(async () => ((await page())[1].muted === false ? true : undefined), 2000);
  });

  it('reboots a player: it goes offline, then comes back online with its settings', async () => {
    seen.length = 0;
    await finished((await editor.post<LampControlResult>('/api/signage/reboot', { ids: [ids[0]] })).body.data.dispatchId);
    await waitFor(() => (changesOf('FSE-1').some((c) => c.changed.networkStatus === OnlineState.Offline) ? true : undefined), 5000);
    await waitFor(() => (changesOf('FSE-1').some((c) => c.changed.networkStatus === OnlineState.Online) ? true : undefined), 10_000);
    expect(fleet.player('FSE-1')).toMatchObject({ online: true, boots: 2, volume: 80 });
    expect((await page())[0]).toMatchObject({ networkStatus: OnlineState.Online, volume: 80 });
  });
});
