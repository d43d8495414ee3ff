import { PlaybackMode, TaskTimeStatus, broadcastScheduleProblems, type BroadcastSchedule } from '@sc/contracts';
import {
  nextWindow,
  playingAt,
  scheduleTimeStatus,
  schedulesTimeStatus,
  shuffledOrder,
  windowAt,
  immediateDone,
  onDemandDone,
  type HeldTask,
} from './programme';

const TOKYO = 'Asia/Tokyo';
const at = (iso: string) => new Date(iso);

// 2026-11-23 is a Monday.
const mornings: BroadcastSchedule = {
  weekdays: ['1', '3'],
  periods: [
    { start: '08:00', end: '08:30' },
    { start: '18:00', end: '00:00' },
  ],
  startDate: '2026-11-23',
  endDate: '2026-11-30',
};

function task(over: Partial<HeldTask>): HeldTask {
  return {
    taskId: 't',
    priority: 5,
    mode: PlaybackMode.Normal,
    durationsMs: [60_000, 120_000],
    schedule: null,
    receivedAt: at('2026-11-23T00:00:00Z'),
    ...over,
  };
}

describe('broadcast schedule windows (terminal clock)', () => {
  it('finds the period under way and the next one in the terminal time zone', () => {
    // 08:10 in Tokyo on Monday is 23:10 UTC on Sunday.
    expect(windowAt(mornings, at('2026-11-22T23:10:00Z'), TOKYO)).toEqual({ start: at('2026-11-22T23:00:00Z'), end: at('2026-11-22T23:30:00Z') });
    expect(windowAt(mornings, at('2026-11-22T23:40:00Z'), TOKYO)).toBeNull();
    // Monday 18:00 to midnight; Tuesday is not a play day, so Wednesday 08:00 comes next.
    expect(nextWindow(mornings, at('2026-11-22T23:40:00Z'), TOKYO)).toEqual({ start: at('2026-11-23T09:00:00Z'), end: at('2026-11-23T15:00:00Z') });
    expect(nextWindow(mornings, at('2026-11-23T15:00:00Z'), TOKYO)?.start).toEqual(at('2026-11-24T23:00:00Z'));
  });

  it('takes all seven days when no weekday is chosen, and stops after the end date', () => {
    const daily = { ...mornings, weekdays: [] };
    expect(nextWindow(daily, at('2026-11-23T15:00:00Z'), TOKYO)?.start).toEqual(at('2026-11-23T23:00:00Z'));
    // Monday the 30th is the last day; after its evening period nothing is left.
    expect(nextWindow(mornings, at('2026-11-30T15:00:00Z'), TOKYO)).toBeNull();
  });

  it('gives the spec time status: not started, in progress (also between periods), ended', () => {
    expect(scheduleTimeStatus(mornings, at('2026-11-22T12:00:00Z'), TOKYO)).toBe(TaskTimeStatus.NotStarted);
    expect(scheduleTimeStatus(mornings, at('2026-11-22T23:00:00Z'), TOKYO)).toBe(TaskTimeStatus.InProgress);
    expect(scheduleTimeStatus(mornings, at('2026-11-24T03:00:00Z'), TOKYO)).toBe(TaskTimeStatus.InProgress);
    expect(scheduleTimeStatus(mornings, at('2026-11-30T15:00:00Z'), TOKYO)).toBe(TaskTimeStatus.Ended);
    // The same instant is still Sunday evening in New York: there the task has not started.
    expect(scheduleTimeStatus(mornings, at('2026-11-22T23:10:00Z'), 'America/New_York')).toBe(TaskTimeStatus.NotStarted);
  });
});

describe('what a terminal plays', () => {
  it('plays an immediate list once, medium by medium, then nothing', () => {
    const once = task({});
    expect(playingAt([once], at('2026-11-23T00:00:30Z'), TOKYO)).toEqual({
      taskId: 't',
      item: 0,
      offsetMs: 30_000,
      until: at('2026-11-23T00:01:00Z'),
    });
    expect(playingAt([once], at('2026-11-23T00:02:00Z'), TOKYO)).toMatchObject({ item: 1, offsetMs: 60_000 });
    expect(playingAt([once], at('2026-11-23T00:03:00Z'), TOKYO)).toBeNull();
    expect(immediateDone(once, at('2026-11-23T00:03:00Z'))).toBe(true);
    const cycling = task({ mode: PlaybackMode.ListCycle });
    expect(playingAt([cycling], at('2026-11-23T00:03:30Z'), TOKYO)).toMatchObject({ item: 0, offsetMs: 30_000 });
    expect(immediateDone(cycling, at('2026-11-24T00:00:00Z'))).toBe(false);
  });

  it('cuts the medium at the end of its period', () => {
    const scheduled = task({
      schedule: { ...mornings, periods: [{ start: '08:00', end: '08:02' }] },
      mode: PlaybackMode.ListCycle,
      durationsMs: [90_000],
    });
    expect(playingAt([scheduled], at('2026-11-22T23:01:40Z'), TOKYO)).toEqual({
      taskId: 't',
      item: 0,
      offsetMs: 10_000,
      until: at('2026-11-22T23:02:00Z'),
    });
    expect(playingAt([scheduled], at('2026-11-22T23:02:00Z'), TOKYO)).toBeNull();
  });

  it('lets a first-priority broadcast pre-empt a scheduled task, which plays on after it', () => {
    const scheduled = task({ taskId: 'scheduled', schedule: mornings, mode: PlaybackMode.ListCycle, priority: 5 });
    const urgent = task({ taskId: 'urgent', priority: 1, durationsMs: [300_000], receivedAt: at('2026-11-22T23:05:00Z') });
    const lower = task({ taskId: 'lower', priority: 8, durationsMs: [300_000], receivedAt: at('2026-11-22T23:05:00Z') });
    expect(playingAt([scheduled, urgent, lower], at('2026-11-22T23:06:00Z'), TOKYO)?.taskId).toBe('urgent');
    // Its clock ran on meanwhile: 11 minutes into a 3-minute list is the second medium, one minute in.
    expect(playingAt([scheduled, urgent, lower], at('2026-11-22T23:11:00Z'), TOKYO)).toMatchObject({
      taskId: 'scheduled',
      item: 1,
      offsetMs: 60_000,
    });
    // Outside the period the lower-priority broadcast would have ended too; between periods nothing plays.
    expect(playingAt([scheduled, lower], at('2026-11-22T23:07:00Z'), TOKYO)?.taskId).toBe('scheduled');
    expect(playingAt([scheduled], at('2026-11-22T23:45:00Z'), TOKYO)).toBeNull();
  });

  it('plays a scheduled task on demand outside its periods, its list once whatever its mode, then keeps to its periods', () => {
    // Monday 12:00 in Tokyo (03:00 UTC): between the task's periods.
    const scheduled = task({ schedule: mornings, mode: PlaybackMode.ListCycle, playFrom: at('2026-11-23T03:00:00Z') });
    expect(playingAt([scheduled], at('2026-11-23T02:59:00Z'), TOKYO)).toBeNull();
    expect(playingAt([scheduled], at('2026-11-23T03:01:30Z'), TOKYO)).toMatchObject({ item: 1, offsetMs: 30_000 });
    expect(onDemandDone(scheduled, at('2026-11-23T03:02:59Z'))).toBe(false);
    expect(playingAt([scheduled], at('2026-11-23T03:03:00Z'), TOKYO)).toBeNull();
    expect(onDemandDone(scheduled, at('2026-11-23T03:03:00Z'))).toBe(true);
    expect(onDemandDone(task({ schedule: mornings }), at('2026-11-23T03:03:00Z'))).toBe(false);
    // It still yields to a first-priority broadcast.
    const urgent = task({ taskId: 'urgent', priority: 1, durationsMs: [600_000], receivedAt: at('2026-11-23T03:00:00Z') });
    expect(playingAt([scheduled, urgent], at('2026-11-23T03:01:00Z'), TOKYO)?.taskId).toBe('urgent');
  });

  it('takes the latest of equal priorities, and shuffles the same way on every terminal', () => {
    const first = task({ taskId: 'first', durationsMs: [600_000] });
    const second = task({ taskId: 'second', durationsMs: [600_000], receivedAt: at('2026-11-23T00:01:00Z') });
    expect(playingAt([first, second], at('2026-11-23T00:02:00Z'), TOKYO)?.taskId).toBe('second');
    expect(playingAt([first, second], at('2026-11-23T00:00:30Z'), TOKYO)?.taskId).toBe('first');
    const order = shuffledOrder(8, 'task:0');
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(shuffledOrder(8, 'task:0')).toEqual(order);
    expect(shuffledOrder(8, 'task:1')).not.toEqual(order);
  });
});

describe('broadcast schedule checks', () => {
  const keys = (schedule: unknown) => broadcastScheduleProblems(schedule).map((p) => `${p.field}:${p.key}`);
  it('refuses periods out of order or repeated, bad dates and weekdays', () => {
    expect(keys(mornings)).toEqual([]);
    expect(keys({ ...mornings, periods: [{ start: '09:00', end: '08:00' }] })).toEqual(['periods[0].end:orderWrong']);
    expect(keys({ ...mornings, periods: [{ start: '08:00', end: '08:00' }] })).toEqual(['periods[0].end:timeRepeats']);
    expect(
      keys({
        ...mornings,
        periods: [
          { start: '08:00', end: '09:00' },
          { start: '08:30', end: '10:00' },
        ],
      }),
    ).toEqual(['periods[1].start:timeRepeats']);
    // A day runs from midnight: 23:00 to 01:00 is out of order (lamps' nights would take it).
    expect(keys({ ...mornings, periods: [{ start: '23:00', end: '01:00' }] })).toEqual(['periods[0].end:orderWrong']);
    expect(keys({ ...mornings, periods: [] })).toEqual(['periods:timeEmpty']);
    expect(keys({ ...mornings, weekdays: ['8'], startDate: '2026-02-30', endDate: '2026-01-01' })).toEqual([
      'weekdays:invalidValue',
      'startDate:dateInvalid',
    ]);
    expect(keys({ ...mornings, endDate: '2026-11-01' })).toEqual(['endDate:orderWrong']);
  });
});

describe('LED task time status over task periods and time zones', () => {
  const periods = [{ start: '19:00', end: '22:00' }];
  const schedules = [
    { weekdays: [], periods, startDate: '2026-12-01', endDate: '2026-12-05' },
    { weekdays: [], periods, startDate: '2026-12-10', endDate: '2026-12-12' },
  ];

  it('is not started before the first period, in progress between two task periods, ended after the last', () => {
    expect(schedulesTimeStatus(schedules, new Date('2026-11-30T12:00:00Z'), ['Asia/Shanghai'], 'UTC')).toBe(TaskTimeStatus.NotStarted);
    expect(schedulesTimeStatus(schedules, new Date('2026-12-07T12:00:00Z'), ['Asia/Shanghai'], 'UTC')).toBe(TaskTimeStatus.InProgress);
    expect(schedulesTimeStatus(schedules, new Date('2026-12-13T00:00:00Z'), ['Asia/Shanghai'], 'UTC')).toBe(TaskTimeStatus.Ended);
  });

  it("reads each screen's own zone: begun in Shanghai, not yet in Madrid", () => {
    // 2026-12-01 19:30 in Shanghai is 12:30 in Madrid, before its first period (19:00).
    const at = new Date('2026-12-01T11:30:00Z');
    expect(schedulesTimeStatus(schedules, at, ['Europe/Madrid'], 'UTC')).toBe(TaskTimeStatus.NotStarted);
    expect(schedulesTimeStatus(schedules, at, ['Asia/Shanghai'], 'UTC')).toBe(TaskTimeStatus.InProgress);
    expect(schedulesTimeStatus(schedules, at, ['Asia/Shanghai', 'Europe/Madrid'], 'UTC')).toBe(TaskTimeStatus.InProgress);
  });

  it('reads a task without screens in the fallback zone: over once its periods are over there', () => {
    expect(schedulesTimeStatus(schedules, new Date('2026-12-13T00:00:00Z'), [], 'Asia/Shanghai')).toBe(TaskTimeStatus.Ended);
    expect(schedulesTimeStatus(schedules, new Date('2026-12-07T12:00:00Z'), [], 'Asia/Shanghai')).toBe(TaskTimeStatus.InProgress);
    expect(schedulesTimeStatus(schedules, new Date('2026-11-30T12:00:00Z'), [], 'Asia/Shanghai')).toBe(TaskTimeStatus.NotStarted);
  });
});
