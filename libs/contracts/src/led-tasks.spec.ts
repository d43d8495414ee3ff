import { DispatchItemState } from './lighting';
import { LedPlayMode } from './devices';
import { LedReceiveStatus, ledReceiveStatusOf, ledTaskProblems, taskPeriodProblems } from './led-tasks';

const valid = {
  name: 'Evening',
  mediaIds: [1],
  playMode: LedPlayMode.Synchronous,
  timePeriods: [
    { start: '08:00', end: '09:00' },
    { start: '19:00', end: '00:00' },
  ],
  taskPeriods: [
    { startDate: '2026-12-01', endDate: '2026-12-10' },
    { startDate: '2026-12-20', endDate: '2026-12-31' },
  ],
  screenIds: [4],
};
const keys = (task: object) => ledTaskProblems({ ...valid, ...task }).map((p) => `${p.field}:${p.key}`);

describe('LED task rules (spec: 1 to 7 time periods, at most 1 file, 1 to 7 task periods)', () => {
  it('accepts a valid task', () => expect(keys({})).toEqual([]));

  it('refuses no file, two files, neither screens nor regions, an unknown play mode and an empty name', () => {
    expect(keys({ mediaIds: [] })).toEqual(['mediaIds:ledTaskNeedsFile']);
    expect(keys({ mediaIds: [1, 2] })).toEqual(['mediaIds:ledTaskOneFile']);
    expect(keys({ screenIds: [] })).toEqual(['screenIds:ledSelectionEmpty']);
    expect(keys({ screenIds: [], regionIds: [] })).toEqual(['screenIds:ledSelectionEmpty']);
    // Aimed at a region alone, or at a region and screens.
    expect(keys({ screenIds: [], regionIds: [7] })).toEqual([]);
    expect(keys({ regionIds: [7] })).toEqual([]);
    expect(keys({ playMode: 3 })).toEqual(['playMode:pleaseSelect']);
    expect(keys({ name: '  ' })).toEqual(['name:nameEmpty']);
  });

  it('refuses 0 or 8 time periods, unordered and overlapping ones', () => {
    expect(keys({ timePeriods: [] })).toEqual(['timePeriods:timeEmpty']);
    const eight = Array.from({ length: 8 }, (_, i) => ({ start: `1${i}:00`, end: `1${i}:30` }));
    expect(keys({ timePeriods: eight })).toEqual(['timePeriods:ledTimePeriodsTooMany']);
    expect(keys({ timePeriods: eight.slice(0, 7) })).toEqual([]);
    expect(
      keys({
        timePeriods: [
          { start: '09:00', end: '10:00' },
          { start: '08:00', end: '08:30' },
        ],
      }),
    ).toEqual(['timePeriods[1].start:orderWrong']);
    expect(
      keys({
        timePeriods: [
          { start: '08:00', end: '10:00' },
          { start: '09:00', end: '11:00' },
        ],
      }),
    ).toEqual(['timePeriods[1].start:timeRepeats']);
    expect(keys({ timePeriods: [{ start: '10:00', end: '09:00' }] })).toEqual(['timePeriods[0].end:orderWrong']);
  });

  it('refuses 0 or 8 task periods, reversed, unordered and overlapping ones', () => {
    expect(taskPeriodProblems([]).map((p) => p.key)).toEqual(['timeEmpty']);
    const eight = Array.from({ length: 8 }, (_, i) => ({ startDate: `2027-01-0${i + 1}`, endDate: `2027-01-0${i + 1}` }));
    expect(taskPeriodProblems(eight).map((p) => p.key)).toEqual(['ledTaskPeriodsTooMany']);
    expect(taskPeriodProblems(eight.slice(0, 7))).toEqual([]);
    expect(taskPeriodProblems([{ startDate: '2027-01-05', endDate: '2027-01-01' }]).map((p) => p.key)).toEqual(['orderWrong']);
    expect(
      taskPeriodProblems([
        { startDate: '2027-01-01', endDate: '2027-01-05' },
        { startDate: '2027-01-05', endDate: '2027-01-09' },
      ]).map((p) => `${p.field}:${p.key}`),
    ).toEqual(['taskPeriods[1].startDate:timeRepeats']);
    expect(taskPeriodProblems([{ startDate: '2027-02-30', endDate: '' }]).map((p) => p.key)).toEqual(['dateInvalid', 'timeEmpty']);
  });
});

describe('LED receive status', () => {
  it('reads to be sent, downloading, received, playing and failed from the ledger row', () => {
    expect(ledReceiveStatusOf(null, false)).toBe(LedReceiveStatus.ToBeSent);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Sent, receipt: null }, false)).toBe(LedReceiveStatus.ToBeSent);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Sent, receipt: { stage: 'received' } }, false)).toBe(LedReceiveStatus.Downloading);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Sent, receipt: { stage: 'downloading' } }, false)).toBe(LedReceiveStatus.Downloading);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Delivered, receipt: null }, false)).toBe(LedReceiveStatus.Received);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Delivered, receipt: null }, true)).toBe(LedReceiveStatus.Playing);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Expired, receipt: null }, false)).toBe(LedReceiveStatus.Failed);
    expect(ledReceiveStatusOf({ state: DispatchItemState.Failed, receipt: null }, false)).toBe(LedReceiveStatus.Failed);
  });
});
