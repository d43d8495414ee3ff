import type { DeviceEvent } from '@sc/device-runtime';
import { clientWritesOf } from './client-sessions';

const AT = '2026-11-20T10:00:00.000Z';
const at = (s: number) => new Date(Date.parse(AT) + s * 1000).toISOString();
const client = (kind: 'join' | 'leave' | 'signal', mac: string, s: number, extra: Record<string, unknown> = {}): DeviceEvent =>
  ({ kind: 'report', channel: 'event', report: { ts: at(s), kind, clientMac: mac, ...extra }, at: at(s) }) as DeviceEvent;
const MAC = 'aa:bb:cc:00:00:01';

describe('client sessions from access point events', () => {
  it('a client that joins and leaves within one write is a session at once, never stored online', () => {
    const w = clientWritesOf(
      new Map([[7, [client('join', MAC, 0, { clientIp: '10.0.0.2', clientSsid: 'City', signalStrength: -60 }), client('leave', MAC, 90)]]]),
    );
    expect(w.ended).toEqual([{ apId: 7, mac: 'AA:BB:CC:00:00:01', ip: '10.0.0.2', ssid: 'City', signal: -60, since: at(0), until: at(90) }]);
    expect(w.opened).toEqual([]);
    // The join first ends any session the client was stored with (a leave that never came).
    expect(w.left).toEqual([{ apId: 7, mac: 'AA:BB:CC:00:00:01', until: at(0), signal: null }]);
  });

  it('a stored client that leaves moves to the history with its last signal; one that joins is stored', () => {
    const w = clientWritesOf(
      new Map([
        [1, [client('signal', MAC, 0, { signalStrength: -71 }), client('leave', MAC, 5)]],
        [2, [client('join', 'aa:bb:cc:00:00:02', 3, { clientSsid: 'City', signalStrength: -50 })]],
      ]),
    );
    expect(w.left).toEqual([
      { apId: 1, mac: 'AA:BB:CC:00:00:01', until: at(5), signal: -71 },
      { apId: 2, mac: 'AA:BB:CC:00:00:02', until: at(3), signal: null },
    ]);
    expect(w.signals).toEqual([]);
    expect(w.opened).toMatchObject([{ apId: 2, mac: 'AA:BB:CC:00:00:02', ssid: 'City', signal: -50, since: at(3) }]);
  });

  it('an access point going offline ends every client it had, stored or joined within the write; later joins start anew', () => {
    const w = clientWritesOf(
      new Map([
        [
          3,
          [
            client('join', MAC, 0),
            { kind: 'offline', at: at(30), silentSince: at(20) } as DeviceEvent,
            client('leave', MAC, 40),
            client('join', MAC, 50),
          ],
        ],
      ]),
    );
    expect(w.ended).toMatchObject([{ mac: 'AA:BB:CC:00:00:01', since: at(0), until: at(20) }]);
    expect(w.apsOffline).toEqual([{ apId: 3, until: at(20) }]);
    expect(w.opened).toMatchObject([{ mac: 'AA:BB:CC:00:00:01', since: at(50) }]);
  });

  it('a signal of a stored client that stays is an update; a device clock far off is not believed', () => {
    const far = { kind: 'report', channel: 'event', report: { ts: '2020-01-01T00:00:00Z', kind: 'join', clientMac: MAC }, at: AT } as DeviceEvent;
    const w = clientWritesOf(new Map([[4, [client('signal', 'aa:bb:cc:00:00:09', 0, { signalStrength: -80 }), far]]]));
    expect(w.signals).toEqual([{ apId: 4, mac: 'AA:BB:CC:00:00:09', signal: -80 }]);
    expect(w.opened[0].since).toBe(AT);
  });
});
