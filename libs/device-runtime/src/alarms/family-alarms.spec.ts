import { AlarmKind, DeviceFamily, OnlineState, WIFI_OVERLOAD_ALARM } from '@sc/contracts';
import type { RowChange } from '../family/family-handler';
import { familyAlarmTransitions } from './family-alarms';

const AT = '2026-11-28T10:00:00.000Z';
const change = (before: Record<string, unknown>, changed: Record<string, unknown>) =>
  ({ recordId: 7, deviceCode: 'AP1', before, changed }) as unknown as RowChange;
const kinds = (before: Record<string, unknown>, changed: Record<string, unknown>, offline = true) =>
  familyAlarmTransitions(DeviceFamily.AccessPoint, false, offline, [WIFI_OVERLOAD_ALARM], change(before, changed), AT).map((t) => [t.kind, t.raise]);

describe('the runtime’s family alarms', () => {
  it('raises offline when the device goes offline and clears it when it is back; an opted-out family gets none', () => {
    const online = { networkStatus: OnlineState.Online, cpuRatio: 10 };
    expect(familyAlarmTransitions(DeviceFamily.Radar, false, true, [], change(online, { networkStatus: OnlineState.Offline }), AT)).toEqual([
      { deviceId: 7, family: DeviceFamily.Radar, ownRecord: false, kind: AlarmKind.Offline, code: 0, raise: true, at: AT },
    ]);
    // A floor screen is a record of its own table: its alarm names the record.
    expect(familyAlarmTransitions(DeviceFamily.Signage, true, true, [], change(online, { networkStatus: OnlineState.Offline }), AT)).toEqual([
      { deviceId: 7, family: DeviceFamily.Signage, ownRecord: true, kind: AlarmKind.Offline, code: 0, raise: true, at: AT },
    ]);
    expect(kinds({ ...online, networkStatus: OnlineState.Offline }, { networkStatus: OnlineState.Online })).toEqual([[AlarmKind.Offline, false]]);
    expect(kinds(online, { networkStatus: OnlineState.Offline }, false)).toEqual([]);
    // Other fields changing say nothing about being online.
    expect(kinds(online, { cpuRatio: 20 })).toEqual([]);
  });

  it('raises a threshold when any field reaches it and clears it only once every field is below the clear level', () => {
    const calm = { cpuRatio: 50, memoryRatio: 50, diskRatio: 50 };
    expect(kinds(calm, { memoryRatio: 90 })).toEqual([[AlarmKind.Overload, true]]);
    expect(kinds(calm, { memoryRatio: 89.9 })).toEqual([]);
    // Already over: another field reaching it raises nothing new.
    expect(kinds({ ...calm, cpuRatio: 95 }, { diskRatio: 92 })).toEqual([]);
    // Between the levels nothing moves (no raise-clear flapping at the limit).
    expect(kinds({ ...calm, cpuRatio: 95 }, { cpuRatio: 85 })).toEqual([]);
    expect(kinds({ ...calm, cpuRatio: 85 }, { cpuRatio: 79 })).toEqual([[AlarmKind.Overload, false]]);
    // One field still high keeps it open.
    expect(kinds({ ...calm, cpuRatio: 95, diskRatio: 85 }, { cpuRatio: 10 })).toEqual([]);
    // A device never heard from (no readings) is not below anything yet.
    expect(kinds({ cpuRatio: null, memoryRatio: null, diskRatio: null }, { cpuRatio: 40, memoryRatio: 40, diskRatio: 40 })).toEqual([]);
  });
});
