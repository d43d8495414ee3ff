import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { LED_STATE_SCHEMA, LedPlayMode, ScreenState, type LedStateMessage, type LedTaskParams } from '@sc/contracts';
import type { DeviceContext } from '../kit';
import { REBOOT_MS, followLed, ledFamily, type LedState } from './led.sim';

const later = '2099-01-01T00:00:00.000Z';
const validState = addFormats(new Ajv({ strict: false }), ['date-time']).compile(LED_STATE_SCHEMA);

describe('simulated LED screen', () => {
  const family = ledFamily();
  const pending: { ms: number; change: (s: LedState) => boolean }[] = [];
  const restarts: { downMs: number; restarted?: (state: LedState) => void }[] = [];
  const context: DeviceContext<LedState> = {
    random: () => 0.5,
    clock: () => Date.parse('2026-11-21T08:00:00Z'),
    after: (ms, change) => void pending.push({ ms, change }),
    report: () => undefined,
    restart: (downMs, restarted) => void restarts.push({ downMs, restarted }),
  };
  const report = (screen: LedState) => family.report(screen, { code: 'LED-1', gatewayId: '' }) as LedStateMessage;

  it('starts bright at full brightness and reports what the contract declares', () => {
    const screen = family.initial({ code: 'LED-1' }, context);
    expect(report(screen)).toMatchObject({ online: true, brightness: 100, volume: 50, screen: ScreenState.Bright, softwareVersion: '3.2.1' });
    expect(validState(report(screen))).toBe(true);
  });

  it('takes a brightness, a volume, black and bright, and a time zone', () => {
    const screen = family.initial({ code: 'LED-1' }, context);
    family.apply(screen, { id: 'a', type: 'brightness', params: { brightness: 35 }, expiresAt: later }, context);
    family.apply(screen, { id: 'b', type: 'volume', params: { volume: 0 }, expiresAt: later }, context);
    family.apply(screen, { id: 'c', type: 'screen', params: { state: ScreenState.Black }, expiresAt: later }, context);
    family.apply(
      screen,
      { id: 'd', type: 'syncTime', params: { timeZone: 'Asia/Tokyo', utc: '2026-11-21T08:00:00.000Z' }, expiresAt: later },
      context,
    );
    expect(report(screen)).toMatchObject({ brightness: 35, volume: 0, screen: ScreenState.Black, timeZone: 'Asia/Tokyo' });
    expect(screen.clockOffsetMs).toBe(0);
    expect(validState(report(screen))).toBe(true);
    family.apply(screen, { id: 'e', type: 'screen', params: { state: ScreenState.Bright }, expiresAt: later }, context);
    expect(report(screen).screen).toBe(ScreenState.Bright);
  });

  it('restarts on reboot: offline a couple of seconds, back with its settings and one more reboot counted', () => {
    const screen = family.initial({ code: 'LED-1' }, context);
    family.apply(screen, { id: 'a', type: 'brightness', params: { brightness: 60 }, expiresAt: later }, context);
    family.apply(screen, { id: 'b', type: 'screen', params: { state: ScreenState.Black }, expiresAt: later }, context);
    restarts.length = 0;
    family.apply(screen, { id: 'r', type: 'reboot', params: {}, expiresAt: later }, context);
    expect(restarts).toHaveLength(1);
    expect(restarts[0].downMs).toBe(REBOOT_MS);
    expect(REBOOT_MS).toBeGreaterThanOrEqual(1000);
    expect(REBOOT_MS).toBeLessThanOrEqual(5000);
    restarts[0].restarted?.(screen);
    expect(report(screen)).toMatchObject({ screen: ScreenState.Black, brightness: 60 });
    expect(screen.reboots).toBe(1);
    expect(pending).toEqual([]);
  });

  it('plays a held task in its periods by the clock of its time zone: synchronous from the period start, asynchronous from when it took it', () => {
    const screen = family.initial({ code: 'LED-1' }, context);
    const task = (taskId: number, playMode: LedPlayMode): LedTaskParams => ({
      taskId,
      name: `Task ${taskId}`,
      playMode,
      timeZone: 'Asia/Shanghai',
      timePeriods: [{ start: '19:00', end: '22:00' }],
      taskPeriods: [{ startDate: '2026-12-01', endDate: '2026-12-03' }],
      file: { mediaId: 9, name: 'Clip', type: 2, url: 'http://x', sha256: 'a'.repeat(64), bytes: 1, width: 64, height: 32 },
    });
    const tookAt = Date.parse('2026-12-01T11:30:00Z');
    screen.tasks.set(1, { params: task(1, LedPlayMode.Asynchronous), ready: true, readyAt: tookAt });
    // 19:40 in Shanghai (11:40Z), in the 19:00 period: asynchronous, it plays from when it took the task (11:30Z).
    expect(followLed(screen, Date.parse('2026-12-01T11:40:00Z'))).toBe(true);
    expect(screen.playing).toMatchObject({ source: 'task', taskId: 1, since: '2026-12-01T11:30:00.000Z' });
    expect(validState(report(screen))).toBe(true);
    screen.tasks.set(1, { params: task(1, LedPlayMode.Synchronous), ready: true, readyAt: tookAt });
    followLed(screen, Date.parse('2026-12-01T11:40:00Z'));
    // Synchronous: from the period's start (19:00 in Shanghai), as every screen of the task.
    expect(screen.playing?.since).toBe('2026-12-01T11:00:00.000Z');
    // 22:30 in Shanghai: outside its periods; after its last day: nothing.
    expect(followLed(screen, Date.parse('2026-12-01T14:30:00Z'))).toBe(true);
    expect(screen.playing).toBeNull();
    expect(followLed(screen, Date.parse('2026-12-04T11:30:00Z'))).toBe(false);
    // Real-time play wins over tasks until stopped.
    screen.realtime = { file: task(1, LedPlayMode.Synchronous).file, since: tookAt };
    followLed(screen, Date.parse('2026-12-01T11:40:00Z'));
    expect(screen.playing).toMatchObject({ source: 'realtime', taskId: null, mediaId: 9 });
    family.apply(
      screen,
      { id: 's', type: 'stopPlay', params: {}, expiresAt: later },
      { ...context, clock: () => Date.parse('2026-12-01T11:40:00Z') },
    );
    expect(screen.playing).toMatchObject({ source: 'task', taskId: 1 });
    family.apply(screen, { id: 'f', type: 'forgetTask', params: { taskId: 1 }, expiresAt: later }, context);
    expect(screen.playing).toBeNull();
  });

  it('works out what plays once a minute on clock ticks, as periods begin and end on whole minutes', () => {
    const screen = family.initial({ code: 'LED-2' }, context);
    screen.tasks.set(3, {
      params: {
        taskId: 3,
        name: 'Morning',
        playMode: LedPlayMode.Synchronous,
        timeZone: 'UTC',
        timePeriods: [{ start: '08:00', end: '09:00' }],
        taskPeriods: [{ startDate: '2026-12-01', endDate: '2026-12-03' }],
        file: { mediaId: 4, name: 'Clip', type: 2, url: 'http://x', sha256: 'a'.repeat(64), bytes: 1, width: 64, height: 32 },
      },
      ready: true,
      readyAt: Date.parse('2026-12-01T07:00:00Z'),
    });
    expect(followLed(screen, Date.parse('2026-12-01T07:59:10Z'), true)).toBe(false);
    expect(screen.playing).toBeNull();
    // Later ticks in the same minute are skipped; the first tick of 08:00 starts the task.
    expect(followLed(screen, Date.parse('2026-12-01T07:59:59Z'), true)).toBe(false);
    expect(followLed(screen, Date.parse('2026-12-01T08:00:00Z'), true)).toBe(true);
    expect(screen.playing).toMatchObject({ source: 'task', taskId: 3 });
    // A tick within that minute does not look again (what it holds changes only through commands, which do)...
    screen.tasks.delete(3);
    expect(followLed(screen, Date.parse('2026-12-01T08:00:20Z'), true)).toBe(false);
    expect(screen.playing).toMatchObject({ source: 'task', taskId: 3 });
    // ...and a command's change is worked out at once, within the minute too.
    expect(followLed(screen, Date.parse('2026-12-01T08:00:20Z'))).toBe(true);
    expect(screen.playing).toBeNull();
  });
});
