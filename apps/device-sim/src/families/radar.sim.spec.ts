import { DETECTIONS_PER_MINUTE, drawCount, localHour, radarFamily } from './radar.sim';

/** A seeded random source (mulberry32), so the draws are the same every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('simulated radars', () => {
  it('detects about as often as the hour says, more at rush hours', () => {
    const random = seeded(7);
    const hour = (h: number) =>
      Array.from({ length: 200 }, () => drawCount(DETECTIONS_PER_MINUTE[h], 60_000, random)).reduce((a, b) => a + b, 0) / 200;
    expect(hour(8)).toBeGreaterThan(8);
    expect(hour(8)).toBeLessThan(12);
    expect(hour(3)).toBeLessThan(0.5);
    expect(localHour(new Date('2026-11-27T00:30:00Z'), 'Asia/Shanghai')).toBe(8);
  });

  it('gathers detections at each tick, in order, and hands them over once', () => {
    let now = Date.parse('2026-11-27T00:00:00Z');
    const family = radarFamily({ timeZone: 'Asia/Shanghai', busyness: 1 });
    const ctx = { random: seeded(3), clock: () => now };
    const radar = family.initial({ code: 'RADAR-00001' }, ctx);
    now += 10 * 60_000;
    family.tick!(radar, ctx);
    const events = family.takeEvents!(radar) as { ts: string; event: number }[];
    expect(events.length).toBeGreaterThan(50);
    expect(events.map((e) => e.ts)).toEqual([...events.map((e) => e.ts)].sort());
    expect(family.takeEvents!(radar)).toEqual([]);
    expect(family.report(radar, { code: 'RADAR-00001', gatewayId: '' })).toMatchObject({
      online: true,
      mac: expect.stringMatching(/^02:A0(:[0-9A-F]{2}){4}$/),
    });
  });
});
