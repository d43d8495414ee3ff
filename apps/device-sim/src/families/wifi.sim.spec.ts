import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { AC_STATE_SCHEMA, AP_CLIENT_EVENT_SCHEMA, AP_LOAD_SCHEMA, AP_STATE_SCHEMA, WIFI_LOAD_SCHEMA } from '@sc/contracts';
import type { DeviceContext } from '../kit';
import { WIFI_REBOOT_MS, acFamily, apFamily, type ApState, type WifiLoad } from './wifi.sim';

const ajv = addFormats(new Ajv({ strict: false }), ['date-time']);
const valid = (schema: object, payload: object) => ajv.validate(schema, payload) || ajv.errorsText();
const later = '2099-01-01T00:00:00.000Z';

/** A context whose draws follow `draws` in turn. */
function contextOf<S>(draws: number[] = [0.5]): DeviceContext<S> & { restarts: number[] } {
  let i = 0;
  const restarts: number[] = [];
  return {
    random: () => draws[i++ % draws.length],
    clock: () => Date.parse('2026-11-21T08:00:00Z'),
    after: () => undefined,
    report: () => undefined,
    restart: (downMs) => void restarts.push(downMs),
    restarts,
  };
}

describe('simulated Wi-Fi devices', () => {
  it('an access controller reports its load as the contract declares, drifting, and restarts on reboot', () => {
    const family = acFamily();
    const ctx = contextOf<WifiLoad & { reboots: number }>();
    const ac = family.initial({ code: 'AC-1' }, ctx);
    expect(valid(AC_STATE_SCHEMA, family.report(ac, { code: 'AC-1', gatewayId: '' }))).toBe(true);
    const reading = family.telemetry!(ac, new Set(), new Date('2026-11-21T08:00:10Z'), () => 0.9);
    expect(valid(WIFI_LOAD_SCHEMA, reading)).toBe(true);
    family.apply(ac, { id: 'a', type: 'reboot', params: {}, expiresAt: later }, ctx);
    expect(ctx.restarts).toEqual([WIFI_REBOOT_MS]);
  });

  it('clients join and leave an access point by themselves, each an event the contract declares, its count in its state', () => {
    const family = apFamily();
    // Joins while it has few clients, leaves once it has many (draws below its size / 40 leave).
    const ctx = contextOf<ApState>([0.9]);
    const ap = family.initial({ code: 'AP-1' }, ctx);
    for (let i = 0; i < 10; i++) family.act!(ap, ctx);
    expect(ap.clients.size).toBe(10);
    const events = family.takeEvents!(ap) as { kind: string; clientMac: string }[];
    expect(events.map((e) => e.kind)).toEqual(Array(10).fill('join'));
    expect(new Set(events.map((e) => e.clientMac)).size).toBe(10);
    for (const event of events) expect(valid(AP_CLIENT_EVENT_SCHEMA, event)).toBe(true);
    expect(family.takeEvents!(ap)).toEqual([]);
    const leaving = contextOf<ApState>([0.01]);
    family.act!(ap, leaving);
    expect(ap.clients.size).toBe(9);
    expect(family.takeEvents!(ap)).toMatchObject([{ kind: 'leave' }]);
    const state = family.report(ap, { code: 'AP-1', gatewayId: '' });
    expect(state).toMatchObject({ online: true, clients: 9 });
    expect(valid(AP_STATE_SCHEMA, state)).toBe(true);
    expect(
      valid(
        AP_LOAD_SCHEMA,
        family.telemetry!(ap, new Set(), new Date('2026-11-21T08:00:10Z'), () => 0.05),
      ),
    ).toBe(true);
  });

  it('an access point back online has new clients only (the platform ended the sessions it had)', () => {
    const family = apFamily();
    const ctx = contextOf<ApState>([0.9]);
    const ap = family.initial({ code: 'AP-2' }, ctx);
    for (let i = 0; i < 5; i++) family.act!(ap, ctx);
    const before = new Set(ap.clients.keys());
    family.connected!(ap, contextOf<ApState>([0.5]));
    expect([...ap.clients.keys()].some((mac) => before.has(mac))).toBe(false);
    expect(family.takeEvents!(ap).every((e) => (e as { kind: string }).kind === 'join')).toBe(true);
  });
});
