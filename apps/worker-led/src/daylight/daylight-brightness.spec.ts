import { dueBrightness, type RuledScreen } from './daylight-brightness';

const SHENZHEN = { latitude: 22.5431, longitude: 114.0579, timeZone: 'Asia/Shanghai' };
const MADRID = { latitude: 40.4168, longitude: -3.7038, timeZone: 'Europe/Madrid' };
const ruled = (id: number, place = SHENZHEN, phase: RuledScreen['phase'] = null): RuledScreen => ({ id, day: 100, night: 30, place, phase });

describe('daylight brightness', () => {
  // 2026-06-21 12:00 UTC: 20:00 in Shenzhen (after sunset), 14:00 in Madrid (day).
  const evening = new Date('2026-06-21T12:00:00Z');

  it('sends each screen the brightness of its own place and phase, once per phase', () => {
    const due = dueBrightness([ruled(1), ruled(2, MADRID), ruled(3, SHENZHEN, 'night'), ruled(4, MADRID, 'day')], evening);
    expect([...due.values()]).toEqual(
      expect.arrayContaining([
        { phase: 'night', ids: [1] },
        { phase: 'day', ids: [2] },
      ]),
    );
    expect(due.size).toBe(2);
  });

  it('switches at sunrise and sunset', () => {
    // Shenzhen, 21 June: sunrise about 05:38, sunset about 19:11 local (21:38 and 11:11 UTC).
    expect([...dueBrightness([ruled(1, SHENZHEN, 'night')], new Date('2026-06-20T21:20:00Z')).values()]).toEqual([]);
    expect([...dueBrightness([ruled(1, SHENZHEN, 'night')], new Date('2026-06-20T22:00:00Z')).values()]).toEqual([{ phase: 'day', ids: [1] }]);
    expect([...dueBrightness([ruled(1, SHENZHEN, 'day')], new Date('2026-06-21T11:00:00Z')).values()]).toEqual([]);
    expect([...dueBrightness([ruled(1, SHENZHEN, 'day')], new Date('2026-06-21T11:30:00Z')).values()]).toEqual([{ phase: 'night', ids: [1] }]);
  });
});
