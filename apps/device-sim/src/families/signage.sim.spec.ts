import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { ScreenOrientation, SIGNAGE_STATE_SCHEMA, type SignageStateMessage } from '@sc/contracts';
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
