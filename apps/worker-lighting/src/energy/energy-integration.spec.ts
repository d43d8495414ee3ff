import { integrateReadings } from './energy-integration';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 21, 10, 0, 0);

describe('energy from power readings', () => {
  it('integrates the trapezoid between readings, split at the hour', () => {
    const slices = integrateReadings({ at: T0 - 30 * 60_000, watts: 100 }, [{ at: T0 + 30 * 60_000, watts: 100 }], {
      maxGapMs: 2 * H,
      litAboveWatts: 2,
    });
    expect(slices).toEqual([
      { hour: T0 - H, wh: 50, litSeconds: 1800, coveredSeconds: 1800 },
      { hour: T0, wh: 50, litSeconds: 1800, coveredSeconds: 1800 },
    ]);
    const ramp = integrateReadings({ at: T0, watts: 0 }, [{ at: T0 + 60_000, watts: 60 }], { maxGapMs: H, litAboveWatts: 2 });
    expect(ramp[0].wh).toBeCloseTo(0.5, 6);
  });

  it('counts only the cap before a reading that follows a long silence, at its power', () => {
    const slices = integrateReadings({ at: T0, watts: 100 }, [{ at: T0 + 5 * H + 10 * 60_000, watts: 40 }], {
      maxGapMs: 15 * 60_000,
      litAboveWatts: 2,
    });
    // 15 minutes before the reading: 5 in the hour before it, 10 in its own.
    expect(slices.map((s) => [s.hour - T0, s.coveredSeconds])).toEqual([
      [4 * H, 300],
      [5 * H, 600],
    ]);
    expect(slices[0].wh + slices[1].wh).toBeCloseTo(10, 6);
  });

  it('ignores repeated and out-of-order readings, and standby draw is not lit', () => {
    const readings = [
      { at: T0 + 10_000, watts: 0.5 },
      { at: T0 + 10_000, watts: 0.5 },
      { at: T0 + 5_000, watts: 90 },
      { at: T0 + 20_000, watts: 0.5 },
    ];
    const [slice] = integrateReadings({ at: T0, watts: 0.5 }, readings);
    expect(slice.coveredSeconds).toBe(20);
    expect(slice.litSeconds).toBe(0);
    expect(slice.wh).toBeCloseTo((0.5 * 20) / 3600, 9);
    expect(integrateReadings(null, [{ at: T0, watts: 100 }])).toEqual([]);
  });
});
