import { DateTime } from 'luxon';
import { StrategyMode, type SchedulePlace, type StrategyPeriod, type StrategyRules, type Weekday } from '@sc/contracts';
import { levelAt, nightOf, planNight, nextChangeAfter } from './night';
import { nightSun } from './sun';
import { periodProblems, strategyProblems } from '@sc/contracts';
import { resolvePlace } from './place';

const BERLIN: SchedulePlace = { latitude: 52.52, longitude: 13.405, timeZone: 'Europe/Berlin' };
const TROMSO: SchedulePlace = { latitude: 69.6492, longitude: 18.9553, timeZone: 'Europe/Oslo' };
const SHENZHEN: SchedulePlace = { latitude: 22.5431, longitude: 114.0579, timeZone: 'Asia/Shanghai' };

function local(iso: string, zone: string): Date {
  return DateTime.fromISO(iso, { zone }).toJSDate();
}
function clock(d: Date | null, zone: string): string | null {
  return d && DateTime.fromJSDate(d, { zone }).toFormat('HH:mm');
}
const week = (weekdays: Weekday[], periods: StrategyPeriod[]): StrategyRules => ({ mode: StrategyMode.Week, modeData: { weekdays }, periods });

describe('the sun', () => {
  it('sets and rises in Berlin at midsummer at the published times (to the minute or two)', () => {
    const sun = nightSun(BERLIN, '2026-06-21');
    expect(sun.polar).toBeNull();
    // Published: sunset 21:33, sunrise (22 June) 04:43 CEST.
    expect(Math.abs(minutesBetween(sun.sunset, local('2026-06-21T21:33', BERLIN.timeZone)))).toBeLessThanOrEqual(2);
    expect(Math.abs(minutesBetween(sun.sunrise, local('2026-06-22T04:43', BERLIN.timeZone)))).toBeLessThanOrEqual(2);
  });

  it('knows the midnight sun and the polar night in Tromsø', () => {
    expect(nightSun(TROMSO, '2026-06-21')).toMatchObject({ polar: 'day', sunset: null, sunrise: null });
    expect(nightSun(TROMSO, '2026-12-21')).toMatchObject({ polar: 'night', sunset: null, sunrise: null });
  });

  it('runs a night from noon to noon, 23 or 25 hours when the clocks change', () => {
    const hours = (night: string) => {
      const s = nightSun(BERLIN, night);
      return (s.to.getTime() - s.from.getTime()) / 3_600_000;
    };
    expect(hours('2026-03-28')).toBe(23);
    expect(hours('2026-10-24')).toBe(25);
    expect(hours('2026-07-01')).toBe(24);
  });
});

function minutesBetween(a: Date | null, b: Date): number {
  if (!a) throw new Error('no time');
  return (a.getTime() - b.getTime()) / 60_000;
}

describe('a night of a strategy', () => {
  const sunRules: StrategyRules = {
    mode: StrategyMode.SunriseSunset,
    modeData: { sunsetOffset: 15, sunriseOffset: -10, level: 100 },
    periods: [{ start: '00:00', end: '05:00', level: 40 }],
  };

  it('lights from sunset to sunrise, moved by the offsets, with a period dimming the middle of the night', () => {
    const plan = planNight(sunRules, BERLIN, '2026-06-21');
    const zone = BERLIN.timeZone;
    const [first, second, third] = plan.intervals;
    expect(plan.intervals).toHaveLength(2);
    expect(third).toBeUndefined();
    expect(first.level).toBe(100);
    expect(Math.abs(minutesBetween(first.start, plan.sunset as Date) - 15)).toBeLessThan(0.01);
    expect(clock(first.end, zone)).toBe('00:00');
    // Sunrise at about 04:43, minus 10 minutes: before the period's 05:00, so the window cuts the period.
    expect(second.level).toBe(40);
    expect(Math.abs(minutesBetween(second.end, plan.sunrise as Date) + 10)).toBeLessThan(0.01);
    expect(levelAt({ rules: sunRules, place: BERLIN }, local('2026-06-21T20:00', zone))).toBe(0);
    expect(levelAt({ rules: sunRules, place: BERLIN }, local('2026-06-21T23:00', zone))).toBe(100);
    expect(levelAt({ rules: sunRules, place: BERLIN }, local('2026-06-22T02:00', zone))).toBe(40);
    expect(levelAt({ rules: sunRules, place: BERLIN }, local('2026-06-22T06:00', zone))).toBe(0);
  });

  it('stays dark through the midnight sun and lit through the polar night', () => {
    const zone = TROMSO.timeZone;
    expect(planNight(sunRules, TROMSO, '2026-06-21').intervals).toEqual([]);
    expect(levelAt({ rules: sunRules, place: TROMSO }, local('2026-06-22T01:00', zone))).toBe(0);
    const winter = planNight(sunRules, TROMSO, '2026-12-21');
    expect(winter.intervals.map((i) => [clock(i.start, zone), clock(i.end, zone), i.level])).toEqual([
      ['12:00', '00:00', 100],
      ['00:00', '05:00', 40],
      ['05:00', '12:00', 100],
    ]);
    expect(levelAt({ rules: sunRules, place: TROMSO }, local('2026-12-21T14:00', zone))).toBe(100);
  });

  it('runs a period across midnight, belonging to the evening it starts on', () => {
    const rules = week(['7'], [{ start: '22:00', end: '02:00', level: 80 }]); // Sunday evenings only
    const zone = SHENZHEN.timeZone;
    // 2026-11-22 is a Sunday.
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-11-22T21:59', zone))).toBe(0);
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-11-22T22:00', zone))).toBe(80);
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-11-23T01:59', zone))).toBe(80); // Monday morning, Sunday's night
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-11-23T02:00', zone))).toBe(0);
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-11-23T22:30', zone))).toBe(0); // Monday evening: not selected
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-11-21T23:00', zone))).toBe(0); // Saturday evening
    expect(nightOf(local('2026-11-23T11:59', zone), zone)).toBe('2026-11-22');
    expect(nightOf(local('2026-11-23T12:00', zone), zone)).toBe('2026-11-23');
  });

  it('treats no weekday selected as all seven', () => {
    const rules = week([], [{ start: '19:00', end: '23:00', level: 60 }]);
    for (let day = 16; day <= 22; day++) {
      expect(levelAt({ rules, place: SHENZHEN }, local(`2026-11-${day}T20:00`, SHENZHEN.timeZone))).toBe(60);
    }
  });

  it('keeps clock times through the spring-forward night, and the night is an hour shorter', () => {
    const rules = week([], [{ start: '01:00', end: '05:00', level: 60 }]);
    const zone = BERLIN.timeZone;
    const [spring] = planNight(rules, BERLIN, '2026-03-28').intervals; // clocks go 02:00 -> 03:00 on 29 March
    expect([clock(spring.start, zone), clock(spring.end, zone)]).toEqual(['01:00', '05:00']);
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(3);
    const [autumn] = planNight(rules, BERLIN, '2026-10-24').intervals; // clocks go 03:00 -> 02:00 on 25 October
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(5);
    // Both 02:30s of the autumn night are inside the period.
    const firstHalfPastTwo = local('2026-10-25T02:30', zone);
    expect(levelAt({ rules, place: BERLIN }, firstHalfPastTwo)).toBe(60);
    expect(levelAt({ rules, place: BERLIN }, new Date(firstHalfPastTwo.getTime() + 3_600_000))).toBe(60);
  });

  it('moves a period that starts in the skipped hour to the end of the gap', () => {
    const rules = week([], [{ start: '02:30', end: '04:00', level: 20 }]);
    const [i] = planNight(rules, BERLIN, '2026-03-28').intervals;
    expect(clock(i.start, BERLIN.timeZone)).toBe('03:30');
  });

  it('applies a date strategy on the nights from its start date to its end date', () => {
    const rules: StrategyRules = {
      mode: StrategyMode.Date,
      modeData: { startDate: '2026-12-24', endDate: '2026-12-26' },
      periods: [{ start: '18:00', end: '06:00', level: 100 }],
    };
    const zone = SHENZHEN.timeZone;
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-12-23T20:00', zone))).toBe(0);
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-12-24T20:00', zone))).toBe(100);
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-12-27T05:00', zone))).toBe(100); // the 26th's night
    expect(levelAt({ rules, place: SHENZHEN }, local('2026-12-27T20:00', zone))).toBe(0);
  });

  it('raises a sensing lamp during a period for the hold time after a radar event, never outside a period', () => {
    const rules: StrategyRules = {
      mode: StrategyMode.Sensing,
      modeData: { radarCodes: ['R1'], brightness: 100, holdSeconds: 30 },
      periods: [{ start: '22:00', end: '05:00', level: 20 }],
    };
    const zone = SHENZHEN.timeZone;
    const event = local('2026-11-22T23:00', zone);
    const s = { rules, place: SHENZHEN };
    expect(levelAt(s, new Date(event.getTime() - 1000), event)).toBe(20);
    expect(levelAt(s, event, event)).toBe(100);
    expect(levelAt(s, new Date(event.getTime() + 29_999), event)).toBe(100);
    expect(levelAt(s, new Date(event.getTime() + 30_000), event)).toBe(20);
    const noon = local('2026-11-23T13:00', zone);
    expect(levelAt(s, noon, noon)).toBe(0);
  });

  it('names the next moment the level may change', () => {
    const rules = week([], [{ start: '19:00', end: '23:00', level: 60 }]);
    const plan = planNight(rules, SHENZHEN, '2026-11-22');
    const zone = SHENZHEN.timeZone;
    expect(clock(nextChangeAfter(plan, local('2026-11-22T13:00', zone)), zone)).toBe('19:00');
    expect(clock(nextChangeAfter(plan, local('2026-11-22T20:00', zone)), zone)).toBe('23:00');
    expect(nextChangeAfter(plan, local('2026-11-23T01:00', zone))).toEqual(plan.to);
  });
});

describe('period and strategy validation', () => {
  const keys = (problems: { key: string }[]) => problems.map((p) => p.key);

  it('accepts ordered periods, across midnight too', () => {
    expect(
      periodProblems(
        [
          { start: '18:00', end: '22:00', level: 100 },
          { start: '22:00', end: '02:00', level: 60 },
          { start: '02:00', end: '06:00', level: 20 },
        ],
        true,
      ),
    ).toEqual([]);
  });

  it('says Order Wrong for periods out of order or ending before they start', () => {
    expect(
      keys(
        periodProblems(
          [
            { start: '22:00', end: '23:00', level: 100 },
            { start: '19:00', end: '20:00', level: 60 },
          ],
          true,
        ),
      ),
    ).toEqual(['orderWrong']);
    expect(keys(periodProblems([{ start: '06:00', end: '05:00', level: 100 }], true))).toEqual(['orderWrong']);
  });

  it('says Time Repeats for overlapping or repeated times', () => {
    expect(
      keys(
        periodProblems(
          [
            { start: '18:00', end: '23:00', level: 100 },
            { start: '22:00', end: '01:00', level: 60 },
          ],
          true,
        ),
      ),
    ).toEqual(['timeRepeats']);
    expect(keys(periodProblems([{ start: '18:00', end: '18:00', level: 100 }], true))).toEqual(['timeRepeats']);
  });

  it('requires times and brightness, and brightness on the dimming steps', () => {
    const problems = periodProblems(
      [
        { start: '', end: '06:00' },
        { start: '07:00', end: '08:00', level: 50 },
      ],
      true,
    );
    expect(problems).toEqual([
      { field: 'periods[0].start', key: 'timeEmpty' },
      { field: 'periods[0].level', key: 'brightnessEmpty' },
      { field: 'periods[1].level', key: 'dimmingLevelInvalid', params: { levels: '0, 20, 40, 60, 80, 100' } },
    ]);
    expect(keys(periodProblems([{ start: '25:00', end: '06:00', level: 20 }], true))).toEqual(['timeInvalid']);
    expect(keys(periodProblems([], true))).toEqual(['timeEmpty']);
    expect(periodProblems([], false)).toEqual([]);
  });

  it('checks each mode’s data', () => {
    expect(strategyProblems(StrategyMode.SunriseSunset, { sunsetOffset: 0, sunriseOffset: 0, level: 100 }, [])).toEqual([]);
    expect(keys(strategyProblems(StrategyMode.SunriseSunset, { sunsetOffset: 999, sunriseOffset: 0 }, []))).toEqual([
      'sunOffsetInvalid',
      'brightnessEmpty',
    ]);
    const night = [{ start: '18:00', end: '06:00', level: 100 }];
    expect(keys(strategyProblems(StrategyMode.Date, { startDate: '2026-12-26', endDate: '2026-12-24' }, night))).toEqual(['orderWrong']);
    expect(keys(strategyProblems(StrategyMode.Date, { startDate: '', endDate: '2026-02-30' }, night))).toEqual(['timeEmpty', 'dateInvalid']);
    expect(strategyProblems(StrategyMode.Week, { weekdays: [] }, night)).toEqual([]);
    expect(keys(strategyProblems(StrategyMode.Week, { weekdays: ['1', '8'] }, night))).toEqual(['invalidValue']);
    expect(keys(strategyProblems(StrategyMode.Week, { weekdays: [1] }, night))).toEqual(['invalidValue']);
    expect(strategyProblems(StrategyMode.Sensing, { radarCodes: ['R-1'], brightness: 100, holdSeconds: 60 }, night)).toEqual([]);
    expect(keys(strategyProblems(StrategyMode.Sensing, { radarCodes: [], holdSeconds: 0 }, night))).toEqual([
      'radarCodesInvalid',
      'brightnessEmpty',
      'holdSecondsInvalid',
    ]);
    expect(keys(strategyProblems(9, {}, night))).toEqual(['invalidValue']);
  });
});

describe('a lamp’s place', () => {
  const fallback: SchedulePlace = { latitude: 1, longitude: 2, timeZone: 'UTC' };
  it('takes the lamp’s position, else the nearest region’s, else the default, with the nearest region’s time zone', () => {
    const regions = [
      { latitude: null, longitude: null, timeZone: null },
      { latitude: 10, longitude: 20, timeZone: 'Asia/Tokyo' },
    ];
    expect(resolvePlace({ latitude: 5, longitude: 6 }, regions, fallback)).toEqual({
      place: { latitude: 5, longitude: 6, timeZone: 'Asia/Tokyo' },
      source: 'lamp',
    });
    expect(resolvePlace({ latitude: null, longitude: null }, regions, fallback)).toEqual({
      place: { latitude: 10, longitude: 20, timeZone: 'Asia/Tokyo' },
      source: 'region',
    });
    expect(resolvePlace({ latitude: null, longitude: null }, [], fallback)).toEqual({ place: fallback, source: 'default' });
  });
});
