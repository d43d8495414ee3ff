import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { createHash } from 'node:crypto';
import {
  AdPlayMode,
  PublishType,
  ScreenOrientation,
  SIGNAGE_STATE_SCHEMA,
  type SignagePlayEvent,
  type SignagePublishParams,
  type SignageStateMessage,
} from '@sc/contracts';
import { waitFor } from '@sc/testing';
import type { DeviceContext } from '../kit';
import { REBOOT_DOWN_MS, composeScreenshot, screenSvg, signageFamily, type SignageState } from './signage.sim';

const later = '2099-01-01T00:00:00.000Z';
const validState = addFormats(new Ajv({ strict: false }), ['date-time']).compile(SIGNAGE_STATE_SCHEMA);

describe('simulated floor screen', () => {
  const family = signageFamily();
  const now = Date.parse('2026-11-21T08:00:00Z');
  const restarts: { downMs: number; restarted?: (state: SignageState) => void }[] = [];
  const context: DeviceContext<SignageState> = {
    random: () => 0.5,
    clock: () => now,
    after: () => undefined,
    report: () => undefined,
    restart: (downMs, restarted) => restarts.push({ downMs, restarted }),
  };
  const report = (player: SignageState) => family.report(player, { code: 'FS-1', gatewayId: '' }) as SignageStateMessage;
  const seed = {
    code: 'FS-1',
    record: { name: 'Hall screen', orientation: ScreenOrientation.Portrait, volume: 40, muted: false, serial_number: 'SN-9' },
  };

  it('starts as its record says and reports what the contract declares', () => {
    const player = family.initial(seed, context);
    expect(report(player)).toEqual({
      online: true,
      volume: 40,
      muted: false,
      screenState: 'normal',
      orientation: '9:16',
      resolution: '1080x1920',
      currentAd: null,
      serialNumber: 'SN-9',
      softwareVersion: expect.any(String),
    });
    expect(validState(report(player))).toBe(true);
    const landscape = family.initial({ code: 'FS-2', record: { orientation: ScreenOrientation.Landscape } }, context);
    expect(report(landscape)).toMatchObject({ orientation: '16:9', resolution: '1920x1080', volume: 50, serialNumber: 'SN-FS-2' });
  });

  it('sets its volume, mutes keeping it, and unmutes', () => {
    const player = family.initial(seed, context);
    family.apply(player, { id: 'v', type: 'volume', params: { volume: 75 }, expiresAt: later }, context);
    family.apply(player, { id: 'm', type: 'mute', params: {}, expiresAt: later }, context);
    expect(report(player)).toMatchObject({ volume: 75, muted: true });
    family.apply(player, { id: 'u', type: 'unmute', params: {}, expiresAt: later }, context);
    expect(report(player)).toMatchObject({ volume: 75, muted: false });
  });

  it('restarts on reboot: away a few seconds, back with its settings and one more boot', () => {
    const player = family.initial(seed, context);
    restarts.length = 0;
    family.apply(player, { id: 'r', type: 'reboot', params: {}, expiresAt: later }, context);
    expect(restarts).toHaveLength(1);
    expect(restarts[0].downMs).toBe(REBOOT_DOWN_MS);
    restarts[0].restarted?.(player);
    expect(player.boots).toBe(2);
    expect(report(player)).toMatchObject({ volume: 40, muted: false });
  });

  it('draws its screen at its orientation with its name, its ad and the time', async () => {
    const player = family.initial(seed, context);
    player.currentAd = { id: 3, name: 'City <marathon>' };
    const { svg, width, height } = screenSvg(player, new Date(now));
    expect([width, height]).toEqual([540, 960]);
    expect(svg).toContain('Hall screen');
    expect(svg).toContain('City &#60;marathon&#62;');
    expect(svg).toContain('2026-11-21 08:00:00 UTC');
    const shot = await composeScreenshot({ ...player, orientation: ScreenOrientation.Landscape }, new Date(now));
    const meta = await sharp(shot.jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 960, height: 540 });
  });

  describe('screenshot upload', () => {
    let server: Server;
    const received: { method?: string; type?: string; bytes: Buffer }[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          received.push({ method: req.method, type: req.headers['content-type'], bytes: Buffer.concat(chunks) });
          res.writeHead(200).end('{"code":200}');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('puts a JPEG of its screen to the link the command gives', async () => {
      const player = family.initial(seed, context);
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/signage/screenshotUpload?sig=x`;
      family.apply(player, { id: 's', type: 'screenshot', params: { url, validUntil: later }, expiresAt: later }, context);
      await waitFor(() => (player.screenshots === 1 ? true : undefined), 5000);
      expect(player.lastUpload).toBe('200');
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ method: 'PUT', type: 'image/jpeg' });
      expect((await sharp(received[0].bytes).metadata()).height).toBe(960);
    });
  });
});

describe('simulated floor screen: ad plans', () => {
  const family = signageFamily();
  const files = new Map<string, Buffer>([
    ['/a.mp4', Buffer.alloc(600 * 1024, 7)],
    ['/b.png', Buffer.alloc(10 * 1024, 9)],
  ]);
  let server: Server;
  let base: string;
  let now = Date.parse('2026-12-07T02:00:00Z'); // Monday 10:00 in Shanghai
  const receipts: [number, number][] = [];
  const context: DeviceContext<SignageState> = {
    random: () => 0.5,
    clock: () => now,
    after: () => undefined,
    report: () => undefined,
    restart: () => undefined,
    receipt: (received, total) => receipts.push([received, total]),
  };
  const sha = (body: Buffer) => createHash('sha256').update(body).digest('hex');
  const file = (materialId: number, path: string, corrupt = false) => ({
    materialId,
    url: `${base}${path}`,
    sha256: corrupt ? '0'.repeat(64) : sha(files.get(path)!),
    bytes: files.get(path)!.length,
  });
  const plan = (planId: string, over: Partial<SignagePublishParams> = {}): SignagePublishParams => ({
    planId,
    name: `Plan ${planId}`,
    publishType: PublishType.Append,
    playMode: AdPlayMode.NormalLoop,
    timeZone: 'Asia/Shanghai',
    schedule: { startDate: '2026-12-01', endDate: '2026-12-31', allDay: false, startTime: '09:00', endTime: '18:00', weekdays: [] },
    ads: [
      { adId: 1, name: 'Sale', orientation: ScreenOrientation.Portrait, totalDuration: 10, zones: [[{ materialId: 1, seconds: 10 }]], music: [] },
      { adId: 2, name: 'Metro', orientation: ScreenOrientation.Portrait, totalDuration: 20, zones: [[{ materialId: 2, seconds: 20 }]], music: [] },
    ],
    files: [file(1, '/a.mp4'), file(2, '/b.png')],
    ...over,
  });
  const publish = (player: SignageState, params: SignagePublishParams) =>
    family.apply(player, { id: `cmd-${params.planId}`, type: 'publish', params, expiresAt: later }, context);

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = files.get(req.url ?? '');
      res.writeHead(body ? 200 : 404).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches a plan’s files with receipts, then plays its ads in turn in its hours, gathering each run as a play', async () => {
    const player = family.initial({ code: 'FS-2' }, context);
    const fetching = publish(player, plan('p1'));
    expect(fetching).toBeInstanceOf(Promise);
    // Nothing plays before its files are in.
    expect(family.tick!(player, context)).toBe(false);
    await fetching;
    const total = 610 * 1024;
    expect(receipts.length).toBeGreaterThanOrEqual(2);
    expect(receipts.every(([received, of]) => of === total && received <= total)).toBe(true);

    // Once every file is in, it plays at once (its state is reported with the ack).
    expect(player.currentAd).toEqual({ id: 1, name: 'Sale' });
    expect(family.tick!(player, context)).toBe(false);
    const start = now;
    now += 10_000;
    family.tick!(player, context);
    expect(player.currentAd).toEqual({ id: 2, name: 'Metro' });
    now += 20_000;
    family.tick!(player, context);
    expect(player.currentAd).toEqual({ id: 1, name: 'Sale' });
    expect(family.takeEvents!(player)).toEqual([
      { ts: new Date(start).toISOString(), planId: 'p1', adId: 1, seconds: 10 },
      { ts: new Date(start + 10_000).toISOString(), planId: 'p1', adId: 2, seconds: 20 },
    ]);
    expect(family.takeEvents!(player)).toEqual([]);

    // Its hours end at 18:00 local: the run under way is cut short and reported; nothing plays after.
    now = Date.parse('2026-12-07T10:00:05Z');
    family.tick!(player, context);
    expect(player.currentAd).toBeNull();
    expect(family.takeEvents!(player)).toEqual([expect.objectContaining({ adId: 1 })]);
  });

  it('looks at its plans once a minute on clock ticks while playing nothing, and at once when they change', async () => {
    // 08:59:10 in Shanghai: the plan's hours begin at 09:00.
    now = Date.parse('2026-12-07T00:59:10Z');
    const player = family.initial({ code: 'FS-5' }, context);
    await publish(player, plan('early'));
    expect(player.currentAd).toBeNull();
    // A tick within that minute does not look again: a plan that would play now (changed behind its back) waits...
    player.plans.get('early')!.params.schedule.startTime = '08:00';
    now += 20_000;
    expect(family.tick!(player, context)).toBe(false);
    expect(player.currentAd).toBeNull();
    // ...for the first tick of the next minute.
    now = Date.parse('2026-12-07T01:00:00Z');
    expect(family.tick!(player, context)).toBe(true);
    expect(player.currentAd).toEqual({ id: 1, name: 'Sale' });
    // A clock moved back looks again at once.
    family.apply(player, { id: 'clear', type: 'publish', params: plan('none', { publishType: PublishType.Clear }), expiresAt: later }, context);
    await publish(player, plan('late', { schedule: { ...plan('x').schedule, startTime: '10:00' } }));
    expect(player.currentAd).toBeNull();
    player.plans.get('late')!.params.schedule.startTime = '09:00';
    now = Date.parse('2026-12-07T00:30:00Z');
    expect(family.tick!(player, context)).toBe(false);
    now = Date.parse('2026-12-07T01:00:30Z');
    expect(family.tick!(player, context)).toBe(true);
  });

  it('drops a plan whose file does not match its checksum, saying why', async () => {
    const player = family.initial({ code: 'FS-3' }, context);
    await expect(publish(player, plan('bad', { files: [file(1, '/a.mp4', true)] }))).rejects.toThrow('material 1: checksum mismatch');
    expect(player.plans.size).toBe(0);
  });

  it('replaces, replaces after download, and clears', async () => {
    now = Date.parse('2026-12-07T02:00:00Z');
    const player = family.initial({ code: 'FS-4' }, context);
    await publish(player, plan('old'));
    const replacing = publish(player, plan('new', { publishType: PublishType.ReplaceAfterDownload }));
    // Until the new plan's files are in, the old one stays.
    expect([...player.plans.keys()]).toEqual(['old', 'new']);
    await replacing;
    expect([...player.plans.keys()]).toEqual(['new']);
    await publish(player, plan('now', { publishType: PublishType.Replace }));
    expect([...player.plans.keys()]).toEqual(['now']);
    expect(publish(player, plan('none', { publishType: PublishType.Clear, ads: [], files: [] }))).toBeUndefined();
    expect(player.plans.size).toBe(0);
    family.tick!(player, context);
    expect(player.currentAd).toBeNull();
  });

  it('plays a limited loop its number of times, resting between runs of its list', async () => {
    now = Date.parse('2026-12-07T02:00:00Z');
    const player = family.initial({ code: 'FS-5' }, context);
    await publish(player, plan('loop', { playMode: AdPlayMode.LimitedLoopInterval, playLimitCount: 2, playIntervalSeconds: 60 }));
    const seen: (number | null)[] = [];
    for (let second = 0; second < 200; second += 5) {
      family.tick!(player, context);
      seen.push(player.currentAd?.id ?? null);
      now += 5000;
    }
    const plays = family.takeEvents!(player) as SignagePlayEvent[];
    // Two runs of its two ads (10 s and 20 s), a minute apart, then nothing.
    expect(plays.map((p) => p.adId)).toEqual([1, 2, 1, 2]);
    expect(Date.parse(plays[2].ts) - Date.parse(plays[1].ts)).toBe(20_000 + 60_000);
    expect(seen.at(-1)).toBeNull();
  });
});
