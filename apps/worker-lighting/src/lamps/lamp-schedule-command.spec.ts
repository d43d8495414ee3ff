import { LampStatus, OnlineState, StrategyMode, type LampSchedule } from '@sc/contracts';
import { fieldsAfterCommand, lampCommandOf } from './lamp-commands';
import { applyLampEvents, type LampFields } from './lamp-state';

const schedule: LampSchedule = {
  strategyId: 3,
  name: 'Weeknights',
  rules: { mode: StrategyMode.Week, modeData: { weekdays: [] }, periods: [{ start: '18:00', end: '06:00', level: 80 }] },
  place: { latitude: 22.5, longitude: 114.1, timeZone: 'Asia/Shanghai' },
};

describe('the schedule command', () => {
  it('sends the lamp its own schedule from the row’s params, and nothing incomplete', () => {
    expect(lampCommandOf('schedule', schedule)).toEqual({ type: 'schedule', params: schedule });
    expect(lampCommandOf('schedule', { strategyId: 3, name: 'x' })).toBeNull();
    expect(lampCommandOf('schedule', null)).toBeNull();
  });

  it('marks the lamp distribution succeeded on delivery without touching what it reports', () => {
    const lamp = {
      status: LampStatus.Distributing,
      networkStatus: OnlineState.Online,
      switchState: 1,
      bri: 60,
    } as LampFields;
    const body = lampCommandOf('schedule', schedule)!;
    expect(fieldsAfterCommand(body)).toEqual({});
    expect(applyLampEvents(lamp, [{ kind: 'delivered', ...fieldsAfterCommand(body) }])).toMatchObject({
      status: LampStatus.DistributionSucceeded,
      switchState: 1,
      bri: 60,
    });
  });
});
