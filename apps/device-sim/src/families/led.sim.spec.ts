import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { LED_STATE_SCHEMA, ScreenState, type LedStateMessage } from '@sc/contracts';
import type { DeviceContext } from '../kit';
import { REBOOT_MS, ledFamily, type LedState } from './led.sim';

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
});
