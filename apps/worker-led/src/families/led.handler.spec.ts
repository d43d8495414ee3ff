import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { LED_FAMILY, OnlineState, ScreenState, type LedStateMessage } from '@sc/contracts';
import { ledCommandOf, reduceLed, type LedEvent, type LedFields } from './led.handler';

const AT = '2026-11-21T10:00:00.000Z';
const screen = (fields: Partial<LedFields> = {}): LedFields => ({
  networkStatus: OnlineState.Offline,
  brightness: 100,
  volume: 50,
  screen: ScreenState.Bright,
  clockZone: '',
  hardwareVersion: '',
  softwareVersion: '',
  reportedAt: null,
  playing: null,
  ...fields,
});
const report = (state: Partial<LedStateMessage>): LedEvent => ({
  kind: 'report',
  channel: 'state',
  report: { online: true, brightness: 70, volume: 30, screen: ScreenState.Bright, ...state } as LedStateMessage,
  at: AT,
});
const answered = (action: string, params: unknown, delivered = true): LedEvent => ({ kind: 'answered', action, params, delivered });

describe('LED screen state', () => {
  it('comes online with what it reports, its heartbeat time the report time', () => {
    const next = reduceLed(screen(), report({ timeZone: 'Asia/Shanghai', softwareVersion: '3.1.0', screen: ScreenState.Black }));
    expect(next).toEqual(
      screen({
        networkStatus: OnlineState.Online,
        brightness: 70,
        volume: 30,
        screen: ScreenState.Black,
        clockZone: 'Asia/Shanghai',
        softwareVersion: '3.1.0',
        reportedAt: AT,
      }),
    );
  });

  it('goes offline on its Last Will, keeping its last settings', () => {
    const online = reduceLed(screen(), report({}));
    expect(reduceLed(online, { kind: 'offline', at: AT })).toEqual({ ...online, networkStatus: OnlineState.Offline });
    expect(reduceLed(online, { kind: 'sending', action: 'brightness' })).toBe(online);
  });

  it('records an acknowledged setting at once, and nothing for one refused or expired', () => {
    const online = reduceLed(screen(), report({}));
    expect(reduceLed(online, answered('brightness', { brightness: 20 }))).toEqual({ ...online, brightness: 20 });
    expect(reduceLed(online, answered('volume', { volume: 0 }))).toEqual({ ...online, volume: 0 });
    expect(reduceLed(online, answered('screen', { screen: ScreenState.Black }))).toEqual({ ...online, screen: ScreenState.Black });
    expect(reduceLed(online, answered('syncTime', { timeZone: 'Europe/Madrid', utc: AT }))).toEqual({ ...online, clockZone: 'Europe/Madrid' });
    expect(reduceLed(online, answered('reboot', {}))).toEqual(online);
    expect(reduceLed(online, answered('brightness', { brightness: 20 }, false))).toEqual(online);
    expect(reduceLed(online, answered('brightness', { brightness: 101 }))).toEqual(online);
  });
});

const FILE = {
  mediaId: 7,
  name: 'Welcome',
  type: 1,
  url: 'https://city.example.org/api/led/mediaFile?id=7&expires=1&signature=x',
  sha256: 'a'.repeat(64),
  bytes: 1024,
  width: 640,
  height: 320,
};

describe('LED screen commands', () => {
  const ajv = addFormats(new Ajv({ strict: false }));

  it('sends each action as its declared command', () => {
    const cases: [string, unknown][] = [
      ['brightness', { brightness: 40 }],
      ['volume', { volume: 100 }],
      ['screen', { screen: ScreenState.Black }],
      ['reboot', {}],
      ['syncTime', { timeZone: 'Asia/Tokyo', utc: AT }],
      ['play', { file: FILE }],
      ['stopPlay', {}],
      [
        'task',
        {
          taskId: 3,
          name: 'Evening',
          playMode: 1,
          timeZone: 'Asia/Shanghai',
          timePeriods: [{ start: '19:00', end: '22:00' }],
          taskPeriods: [{ startDate: '2026-12-01', endDate: '2026-12-31' }],
          file: FILE,
        },
      ],
      ['forgetTask', { taskId: 3 }],
    ];
    for (const [action, params] of cases) {
      const command = ledCommandOf(action, params);
      expect(command).not.toBeNull();
      const declared = LED_FAMILY.commands[command!.type as keyof typeof LED_FAMILY.commands];
      expect(ajv.validate(declared.params, command!.params)).toBe(true);
    }
    expect(ledCommandOf('screen', { screen: ScreenState.Bright })).toEqual({ type: 'screen', params: { state: ScreenState.Bright } });
  });

  it('records what a screen reports playing, and nothing once it is offline', () => {
    const playing = { source: 'task' as const, mediaId: 7, name: 'Welcome', taskId: 3, since: AT };
    const on = reduceLed(screen(), report({ online: true, brightness: 50, volume: 10, screen: ScreenState.Bright, playing }));
    expect(on.playing).toEqual(playing);
    expect(reduceLed(on, report({ online: true, brightness: 50, volume: 10, screen: ScreenState.Bright })).playing).toEqual(playing);
    expect(reduceLed(on, { kind: 'offline', at: AT } as LedEvent).playing).toBeNull();
  });

  it('sends nothing for params out of bounds or an unknown action (the row fails)', () => {
    expect(ledCommandOf('brightness', {})).toBeNull();
    expect(ledCommandOf('brightness', { brightness: -1 })).toBeNull();
    expect(ledCommandOf('volume', { volume: 12.5 })).toBeNull();
    expect(ledCommandOf('screen', { screen: 3 })).toBeNull();
    expect(ledCommandOf('syncTime', { timeZone: '' })).toBeNull();
    expect(ledCommandOf('play', {})).toBeNull();
    expect(ledCommandOf('task', { taskId: 3, file: FILE })).toBeNull();
    expect(ledCommandOf('forgetTask', { taskId: 'x' })).toBeNull();
  });
});
