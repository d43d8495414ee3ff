import { RadarEventId } from '@sc/contracts';
import { lampTargets, type RadarRule } from './radar-lamp-rules';

const rule = (strategyId: number, lampIds: number[], brightness: 60 | 100, openInterval: number, closeInterval: number): RadarRule => ({
  strategyId,
  lampIds,
  events: [
    { uniqueIndex: 1, event: RadarEventId.Pedestrian, brightness, openInterval, closeInterval },
    { uniqueIndex: 2, event: RadarEventId.MotorVehicle, brightness: 40 as never, openInterval: 0, closeInterval: 5 },
  ],
});

describe('lampTargets', () => {
  it("raises the group's lamps for the event's row only", () => {
    expect(lampTargets([rule(1, [10, 11], 100, 0, 30)], RadarEventId.Pedestrian)).toEqual([
      { lampId: 10, level: 100, after: 0, closeInterval: 30 },
      { lampId: 11, level: 100, after: 0, closeInterval: 30 },
    ]);
    expect(lampTargets([rule(1, [10], 100, 0, 30)], RadarEventId.NonMotorVehicle)).toEqual([]);
  });

  it('gives a lamp of two groups the highest brightness, the soonest rise and the longest hold', () => {
    expect(lampTargets([rule(1, [10], 60, 2, 30), rule(2, [10, 12], 100, 0, 10)], RadarEventId.Pedestrian)).toEqual([
      { lampId: 10, level: 100, after: 0, closeInterval: 30 },
      { lampId: 12, level: 100, after: 0, closeInterval: 10 },
    ]);
  });
});
