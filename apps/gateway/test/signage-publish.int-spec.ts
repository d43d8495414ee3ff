import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Pool } from 'pg';
import {
  AdPlayMode,
  AdReceiveStatus,
  DispatchItemState,
  PublishType,
  SIGNAGE_FAMILY,
  ScreenOrientation,
  adReceiveStatusOf,
  type DispatchDetail,
  type DispatchRowChange,
  type SignagePublishParams,
} from '@sc/contracts';
import { commandLedger } from '@sc/device-runtime';
import { waitFor, type ApiClient } from '@sc/testing';
import { startSignageFleet, type SignageFleet } from '../../device-sim/src/families/signage.sim';
import { MQTT_URL } from './device-worker';
import { startTestGateway, type TestGateway } from './harness';
import { startSignageRig, type SignageRig } from './signage-rig';

const PLACED = { cMark: 'CM', address: 'Station hall', latitude: 22.5, longitude: 114.1 };
const CODES = ['FSP-1', 'FSP-2', 'FSP-3'];
/** Monday 10:00 in Shanghai, where the plan plays from 09:00 to 18:00. */
const START = new Date('2026-12-07T02:00:00Z');

/**
 * An ad plan published to floor screens through the command ledger, end to end on the real services: the players fetch
 * its files with receipts, each row moves through the receive statuses on a watching socket, a player whose file does
 * not check out fails with the reason, the others play the plan, and every run they play is stored as proof of play.
 */
describe('floor screens: an ad plan published through the ledger, with receipts and proof of play', () => {
  let gw: TestGateway;
  let editor: ApiClient;
  let rig: SignageRig;
  let fleet: SignageFleet;
  let files: Server;
  let base: string;
  let pool: Pool;
  const ids = new Map<string, number>();
  const bodies = new Map<string, Buffer>([
    ['/video.mp4', Buffer.alloc(1_500_000, 3)],
    ['/image.png', Buffer.alloc(200_000, 5)],
  ]);
  const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
  const fileOf = (materialId: number, path: string) => ({
    materialId,
    url: `${base}${path}`,
    sha256: sha(bodies.get(path)!),
    bytes: bodies.get(path)!.length,
  });

  const plan = (): SignagePublishParams => ({
    planId: 'plan-1',
    name: 'Winter sale',
    publishType: PublishType.Replace,
    playMode: AdPlayMode.NormalLoop,
    timeZone: 'Asia/Shanghai',
    schedule: { startDate: '2026-12-01', endDate: '2026-12-31', allDay: false, startTime: '09:00', endTime: '18:00', weekdays: [] },
    ads: [
      {
        adId: 11,
        name: 'Sale',
        orientation: ScreenOrientation.Portrait,
        totalDuration: 5,
        zones: [[{ materialId: 1, seconds: 5 }], [{ materialId: 2, seconds: 5 }]],
        music: [],
      },
    ],
    files: [fileOf(1, '/video.mp4'), fileOf(2, '/image.png')],
  });

  beforeAll(async () => {
    // The video comes in 300 kB a tenth of a second, as over a slow link, so its receipts are seen one by one.
    files = createServer((req, res) => {
      const body = bodies.get(req.url ?? '');
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': body.length });
      let at = 0;
      const next = () => {
        res.write(body.subarray(at, at + 300_000));
        at += 300_000;
        if (at >= body.length) res.end();
        else setTimeout(next, 100);
      };
      next();
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

    gw = await startTestGateway();
    pool = new Pool({ connectionString: gw.db.url, max: 2 });
    editor = await gw.signedIn('editor');
    for (const code of CODES) {
      const answer = await editor.post<{ id: number }>('/api/signage/deviceAddOrEdit', {
        name: `Screen ${code}`,
        code,
        orientation: ScreenOrientation.Portrait,
        ...PLACED,
      });
      ids.set(code, answer.body.data.id);
    }
    rig = await startSignageRig(gw, editor.token, 'signage-publish');
    // The players' clock runs ten times as fast: a 5 s ad is played in half a second.
    fleet = await startSignageFleet({
      mqttUrl: MQTT_URL,
      players: CODES.map((code) => ({ code, record: { name: `Screen ${code}`, orientation: ScreenOrientation.Portrait } })),
      ackLatencyMs: { min: 5, max: 20 },
      clock: { start: START, speed: 10 },
      scheduleTickMs: 100,
      logger: pino({ level: 'silent' }),
    });
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await rig?.stop();
    await pool?.end();
    await gw?.close();
    await new Promise<void>((resolve) => files?.close(() => resolve()));
  }, 30_000);

  it('moves each row through the receive statuses live; a file that does not check out fails its player; the others play it', async () => {
    // The third player is given a link whose checksum does not match its file.
    const params = plan();
    const broken = { ...params, files: [{ ...params.files[0], sha256: '0'.repeat(64) }, params.files[1]] };
    const deviceIds = CODES.map((code) => ids.get(code)!);
    const client = await pool.connect();
    let dispatchId: string;
    try {
      await client.query('BEGIN');
      dispatchId = await commandLedger.create(client, {
        family: SIGNAGE_FAMILY,
        action: 'publish',
        params: { planId: params.planId },
        itemParams: [params, params, broken],
        createdBy: 'editor',
        deviceIds,
        ttlSeconds: 120,
      });
      await client.query('COMMIT');
    } finally {
      client.release();
    }

    const detail = await waitFor(async () => {
      const d = (await editor.get<DispatchDetail>(`/api/dispatch/detail?id=${dispatchId}`)).body.data;
      return d.counts.delivered + d.counts.failed === 3 ? d : undefined;
    }, 30_000);
    const byCode = new Map(detail.items.map((row) => [row.deviceCode, row]));
    expect(CODES.map((code) => [byCode.get(code)!.state, byCode.get(code)!.lastError])).toEqual([
      [DispatchItemState.Delivered, null],
      [DispatchItemState.Delivered, null],
      [DispatchItemState.Failed, 'material 1: checksum mismatch'],
    ]);

    // Each player's row was seen moving on the socket, in the order of the receive statuses.
    const movesOf = (deviceId: number): DispatchRowChange[] =>
      rig.rowEvents.filter((e) => e.dispatchId === dispatchId).flatMap((e) => e.rows.filter((r) => r.deviceId === deviceId));
    await waitFor(() => (movesOf(deviceIds[2]).some((r) => r.state === DispatchItemState.Failed) ? true : undefined), 5000);
    const statuses = (deviceId: number) => [...new Set(movesOf(deviceId).map((row) => adReceiveStatusOf(row)))];
    // Moves gathered in one push frame show their latest only (received may be overtaken by downloading), never out of order.
    const order = [AdReceiveStatus.ReceivedNotDownloaded, AdReceiveStatus.Downloading, AdReceiveStatus.DownloadCompleted];
    const first = statuses(deviceIds[0]);
    expect(first).toEqual(order.filter((status) => first.includes(status)));
    expect(first.slice(-2)).toEqual([AdReceiveStatus.Downloading, AdReceiveStatus.DownloadCompleted]);
    expect(movesOf(deviceIds[0]).some((r) => r.receipt?.stage === 'downloading' && r.receipt.total === 1_700_000)).toBe(true);
    expect(statuses(deviceIds[2]).at(-1)).toBe(AdReceiveStatus.Unknown);

    // The two that have it play it; the third holds nothing.
    await waitFor(() => (['FSP-1', 'FSP-2'].every((code) => fleet.player(code)?.currentAd?.id === 11) ? true : undefined), 10_000);
    expect(fleet.player('FSP-3')).toMatchObject({ plans: [], currentAd: null });
    await waitFor(async () => {
      const rows = await gw.db.query<{ code: string; current_ad: { id: number } | null }>(
        `SELECT code, current_ad FROM signage_device WHERE code = ANY($1::text[]) ORDER BY code`,
        [CODES],
      );
      return rows.map((r) => r.current_ad?.id ?? null).join() === '11,11,' ? true : undefined;
    }, 10_000);
  }, 60_000);

  it('stores every run the players report as proof of play, once each', async () => {
    // A few runs of the 5 s ad (half a second each at ten times the speed).
    await waitFor(() => ((fleet.player('FSP-1')?.playsReported ?? 0) >= 3 ? true : undefined), 15_000);
    const reported = fleet.player('FSP-1')!.playsReported;
    const stored = await waitFor(async () => {
      const [row] = await gw.db.query<{ n: number; ads: number[]; seconds: number[] }>(
        `SELECT count(*)::int AS n, array_agg(DISTINCT ad_id) AS ads, array_agg(DISTINCT seconds) AS seconds FROM signage_play WHERE device_id = $1`,
        [ids.get('FSP-1')],
      );
      return row.n >= reported ? row : undefined;
    }, 10_000);
    expect(stored.ads).toEqual([11]);
    expect(stored.seconds).toEqual([5]);
    // Never more stored than played.
    expect(stored.n).toBeLessThanOrEqual(fleet.player('FSP-1')!.playsReported);
    const [none] = await gw.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM signage_play WHERE device_id = $1`, [ids.get('FSP-3')]);
    expect(none.n).toBe(0);
  }, 40_000);
});
