import type { TFunction } from 'i18next';
import { PlayAction } from '@sc/contracts';
import { describeTaskDispatch, formPathOf, playCycleOf, playDatesOf, playTimeOf } from './task-format';

// Keys and their params, so the test reads what would be translated.
const t = ((key: string, params?: Record<string, unknown>) => (params ? `${key} ${JSON.stringify(params)}` : key)) as unknown as TFunction;
const schedule = {
  weekdays: ['1', '3'] as ('1' | '3')[],
  periods: [
    { start: '08:00', end: '08:30' },
    { start: '18:00', end: '00:00' },
  ],
  startDate: '2026-12-01',
  endDate: null,
};

describe('broadcast task texts', () => {
  it('writes the play cycle and time of a scheduled task, and now for an immediate one', () => {
    expect(playCycleOf(t, { schedule })).toBe('schedule:weekday.1 schedule:weekday.3');
    expect(playCycleOf(t, { schedule: { ...schedule, weekdays: [] } })).toBe('schedule:everyDay');
    expect(playTimeOf(t, { schedule })).toBe('08:00–08:30, 18:00–00:00');
    expect(playTimeOf(t, { schedule: null })).toBe('broadcastTasks:now');
    expect(playDatesOf(t, schedule)).toBe('broadcastTasks:from {"start":"2026-12-01"}');
    expect(playDatesOf(t, { ...schedule, endDate: '2026-12-31' })).toBe('broadcastTasks:dates {"start":"2026-12-01","end":"2026-12-31"}');
  });

  it("puts the server's schedule and selection errors under the form's inputs", () => {
    expect(formPathOf('schedule.periods[1].start')).toBe('periods.1.start');
    expect(formPathOf('schedule.periods')).toBe('periods');
    expect(formPathOf('schedule')).toBe('periods');
    expect(formPathOf('schedule.endDate')).toBe('endDate');
    expect(formPathOf('ids')).toBe('terminals');
    expect(formPathOf('volume')).toBe('volume');
  });

  it('names the task commands for the dispatch panel', () => {
    expect(describeTaskDispatch(t, { action: 'task', params: { title: 'Chime' } })).toBe('broadcastTasks:dispatch.task {"title":"Chime"}');
    expect(describeTaskDispatch(t, { action: 'taskControl', params: { taskId: 'task-3', action: PlayAction.CancelPause } })).toBe(
      'broadcastTasks:dispatch.taskControl {"taskId":"task-3","action":"broadcastTasks:control.cancelPause"}',
    );
    expect(describeTaskDispatch(t, { action: 'volume', params: {} })).toBe('volume');
  });
});
