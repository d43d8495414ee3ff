import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { OnlineState, SIGNAGE_FAMILY, ScreenOrientation, SignageScreenState, type SignageLiveFields, type SignageStateMessage } from '@sc/contracts';
import { reduceSignage, signageCommandOf, type SignageEvent } from './signage.handler';

const AT = '2026-11-21T10:00:00.000Z';
const player = (fields: Partial<SignageLiveFields> = {}): SignageLiveFields => ({
  networkStatus: OnlineState.Offline,
  volume: 50,
  muted: false,
  screenState: SignageScreenState.Normal,
  orientation: ScreenOrientation.Portrait,
  resolution: '',
  currentAd: null,
  serialNumber: 'SN-1',
  softwareVersion: '',
  reportedAt: null,
  lastScreenshotAt: null,
  ...fields,
});
const report = (state: Partial<SignageStateMessage>): SignageEvent => ({
  kind: 'report',
  channel: 'state',
  report: {
    online: true,
    volume: 40,
    muted: false,
    screenState: SignageScreenState.Normal,
    orientation: ScreenOrientation.Landscape,
    ...state,
  } as SignageStateMessage,
  at: AT,
});
const answered = (action: string, params: unknown, delivered = true): SignageEvent => ({ kind: 'answered', action, params, delivered });

describe('floor screen state', () => {
  it('comes online with what it reports, keeping what it leaves out', () => {
    const next = reduceSignage(player(), report({ resolution: '1920x1080', currentAd: { id: 3, name: 'Spring sale' }, softwareVersion: '4.2' }));
    expect(next).toEqual(
      player({
        networkStatus: OnlineState.Online,
        volume: 40,
        orientation: ScreenOrientation.Landscape,
        resolution: '1920x1080',
        currentAd: { id: 3, name: 'Spring sale' },
        softwareVersion: '4.2',
        reportedAt: AT,
      }),
    );
    const again = reduceSignage(next, report({ volume: 70, muted: true, screenState: SignageScreenState.Black }));
    expect(again).toMatchObject({ volume: 70, muted: true, screenState: SignageScreenState.Black, resolution: '1920x1080', serialNumber: 'SN-1' });
    expect(again.currentAd).toEqual({ id: 3, name: 'Spring sale' });
    expect(reduceSignage(again, report({ currentAd: null })).currentAd).toBeNull();
  });

  it('goes offline on its Last Will or silence, keeping its last state', () => {
    const online = reduceSignage(player(), report({}));
    const gone = reduceSignage(online, { kind: 'offline', at: AT });
    expect(gone).toEqual({ ...online, networkStatus: OnlineState.Offline });
    expect(reduceSignage(online, { kind: 'offline', at: AT, silentSince: AT }).networkStatus).toBe(OnlineState.Offline);
  });

  it('records an acknowledged volume, mute and unmute at once, and nothing for a refusal, a reboot or a screenshot', () => {
    const online = reduceSignage(player(), report({}));
    expect(reduceSignage(online, answered('volume', { volume: 85 })).volume).toBe(85);
    expect(reduceSignage(online, answered('volume', { volume: 85 }, false))).toBe(online);
    const muted = reduceSignage(online, answered('mute', {}));
    expect(muted.muted).toBe(true);
    expect(reduceSignage(muted, answered('unmute', {})).muted).toBe(false);
    expect(reduceSignage(online, answered('reboot', {}))).toBe(online);
    expect(reduceSignage(online, answered('screenshot', { url: 'x', validUntil: AT }))).toBe(online);
    expect(reduceSignage(online, { kind: 'sending', action: 'volume' })).toBe(online);
  });

  it('takes a play as word that the player is up, changing nothing else', () => {
    const play = { ts: AT, planId: 'p-1', adId: 3, seconds: 30 };
    expect(reduceSignage(player({ volume: 35 }), { kind: 'report', channel: 'event', report: play, at: AT })).toEqual(
      player({ volume: 35, networkStatus: OnlineState.Online, reportedAt: AT }),
    );
  });
});

describe('floor screen commands', () => {
  const ajv = addFormats(new Ajv({ strict: false }), ['date-time', 'uuid']);

  it('maps each action to a command its declaration accepts', () => {
    const params: Record<string, unknown> = {
      volume: { volume: 30 },
      mute: {},
      unmute: {},
      reboot: {},
      screenshot: { url: 'http://127.0.0.1:8888/api/signage/screenshotUpload?id=1&sig=x', validUntil: AT },
      publish: {
        planId: 'p-1',
        name: 'Winter sale',
        publishType: 'replace',
        playMode: 'normalLoop',
        timeZone: 'Asia/Shanghai',
        schedule: { startDate: '2026-12-01', endDate: '2026-12-31', allDay: true, weekdays: [] },
        ads: [{ adId: 1, name: 'Sale', orientation: '9:16', totalDuration: 30, zones: [[{ materialId: 5, seconds: 30 }]], music: [] }],
        files: [{ materialId: 5, url: 'http://127.0.0.1:8888/api/signage/material/file?id=5&sig=x', sha256: 'a'.repeat(64), bytes: 1000 }],
      },
    };
    for (const action of Object.keys(SIGNAGE_FAMILY.actions)) {
      const command = signageCommandOf(action, params[action]);
      expect(command).not.toBeNull();
      const declared = SIGNAGE_FAMILY.commands[command!.type as keyof typeof SIGNAGE_FAMILY.commands];
      expect(ajv.validate(declared.params, command!.params)).toBe(true);
    }
  });

  it('refuses params players cannot run', () => {
    expect(signageCommandOf('volume', { volume: 101 })).toBeNull();
    expect(signageCommandOf('publish', { planId: 'p-1', ads: [] })).toBeNull();
    expect(signageCommandOf('volume', { volume: '50' })).toBeNull();
    expect(signageCommandOf('volume', {})).toBeNull();
    expect(signageCommandOf('screenshot', {})).toBeNull();
    expect(signageCommandOf('brightness', {})).toBeNull();
  });
});
