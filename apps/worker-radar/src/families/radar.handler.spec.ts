import { OnlineState, RadarEventId } from '@sc/contracts';
import { fadedRate, reduceRadar, type RadarFields } from './radar.handler';

const fresh: RadarFields = {
  networkStatus: OnlineState.Offline,
  count: 0,
  radarRate: 0,
  swver: '',
  hwver: '',
  mac: '',
  rssi: null,
  reportedAt: null,
  lastDetectionAt: null,
};
const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 20, 0, s)).toISOString();

describe('radar handler', () => {
  it('takes its versions and link from its state, online', () => {
    const radar = reduceRadar(fresh, {
      kind: 'report',
      channel: 'state',
      report: { online: true, swver: '2.4.1', hwver: 'MW', mac: '02:A0:00:00:00:01', rssi: -60 },
      at: at(0),
    });
    expect(radar).toMatchObject({
      networkStatus: OnlineState.Online,
      swver: '2.4.1',
      hwver: 'MW',
      mac: '02:A0:00:00:00:01',
      rssi: -60,
      reportedAt: at(0),
    });
  });

  it('counts each detection and keeps a rate a minute that fades when it is quiet', () => {
    let radar = fresh;
    for (let s = 0; s < 600; s += 10) {
      radar = reduceRadar(radar, { kind: 'report', channel: 'event', report: { ts: at(s), event: RadarEventId.Pedestrian }, at: at(s) });
    }
    expect(radar.count).toBe(60);
    expect(radar.lastDetectionAt).toBe(at(590));
    // Six a minute for ten minutes: about six (a fading count reads a little above the rate at a detection).
    expect(radar.radarRate).toBeGreaterThan(5);
    expect(radar.radarRate).toBeLessThan(7);
    const quiet = reduceRadar(radar, {
      kind: 'report',
      channel: 'state',
      report: { online: true },
      at: new Date(Date.parse(at(590)) + 5 * 60_000).toISOString(),
    });
    expect(quiet.radarRate).toBeLessThan(0.1);
    expect(quiet.count).toBe(60);
    expect(fadedRate(6, at(0), at(60))).toBeCloseTo(6 / Math.E, 5);
  });

  it('goes offline on its Last Will, its rate with it', () => {
    const online = reduceRadar(fresh, { kind: 'report', channel: 'event', report: { ts: at(0), event: 3 }, at: at(0) });
    expect(reduceRadar(online, { kind: 'offline', at: at(1) })).toMatchObject({ networkStatus: OnlineState.Offline, radarRate: 0, count: 1 });
  });
});
