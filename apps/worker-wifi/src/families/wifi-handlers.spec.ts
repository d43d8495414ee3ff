import { OnlineState } from '@sc/contracts';
import { reduceAc, type AcFields } from './ac.handler';
import { reduceAp, type ApFields } from './ap.handler';

const AT = '2026-11-20T10:00:00.000Z';
const offline = { networkStatus: OnlineState.Offline, cpuRatio: null, memoryRatio: null, diskRatio: null, softwareVersion: '', reportedAt: null };

describe('access controller and access point handlers', () => {
  it('a controller report sets its load (one decimal) and takes it online; its Last Will takes it offline', () => {
    const ac: AcFields = { ...offline };
    const on = reduceAc(ac, {
      kind: 'report',
      channel: 'state',
      report: { online: true, cpuRatio: 12.345, memoryRatio: 40, diskRatio: 7.06, softwareVersion: 'V3' },
      at: AT,
    });
    expect(on).toEqual({ networkStatus: OnlineState.Online, cpuRatio: 12.3, memoryRatio: 40, diskRatio: 7.1, softwareVersion: 'V3', reportedAt: AT });
    expect(reduceAc(on, { kind: 'offline', at: AT })).toMatchObject({ networkStatus: OnlineState.Offline, cpuRatio: null, softwareVersion: 'V3' });
    expect(reduceAc(on, { kind: 'answered', action: 'reboot', params: {}, delivered: true })).toBe(on);
  });

  it('an access point counts its clients from its readings, and moves the count with each join and leave between them', () => {
    let ap: ApFields = { ...offline, clientCount: 0 };
    ap = reduceAp(ap, { kind: 'report', channel: 'telemetry', report: { ts: AT, cpuRatio: 5, memoryRatio: 6, diskRatio: 7, clients: 3 }, at: AT });
    expect(ap).toMatchObject({ networkStatus: OnlineState.Online, clientCount: 3, cpuRatio: 5 });
    const join = { kind: 'report', channel: 'event', report: { ts: AT, kind: 'join', clientMac: 'AA:BB:CC:DD:EE:FF' }, at: AT } as const;
    const leave = { ...join, report: { ...join.report, kind: 'leave' } } as const;
    ap = reduceAp(ap, join);
    expect(ap.clientCount).toBe(4);
    ap = reduceAp(reduceAp(reduceAp(reduceAp(reduceAp(ap, leave), leave), leave), leave), leave);
    expect(ap.clientCount).toBe(0);
    expect(reduceAp({ ...ap, clientCount: 9 }, { kind: 'offline', at: AT })).toMatchObject({ networkStatus: OnlineState.Offline, clientCount: 0 });
  });
});
