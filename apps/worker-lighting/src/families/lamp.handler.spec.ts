import Ajv from 'ajv';
import {
  FaultCode,
  LAMP_FAMILY,
  LampStatus,
  OnlineState,
  StrategyMode,
  type LampLiveFields,
  type LampSchedule,
  type LampStateMessage,
  type LampTelemetryMessage,
} from '@sc/contracts';
import { changedFields } from '@sc/device-runtime';
import { fieldsAfterCommand, lampCommandOf, reduceLamp, type LampEvent } from './lamp.handler';

type LampFields = LampLiveFields;
const applyLampEvents = (lamp: LampFields, events: readonly LampEvent[]) => events.reduce(reduceLamp, lamp);
const changedLampFields = changedFields<LampFields>;

const AT = '2024-11-21T10:00:00.000Z';
const lamp = (fields: Partial<LampFields> = {}): LampFields => ({
  status: LampStatus.Normal,
  networkStatus: OnlineState.Online,
  switchState: 0,
  bri: 0,
  telemetry: null,
  faults: [],
  reportedAt: null,
  gatewayId: '',
  hardwareVersion: '',
  softwareVersion: '',
  totalIlluminationHours: null,
  ...fields,
});
const state = (report: LampStateMessage): LampEvent => ({ kind: 'report', channel: 'state', report, at: AT });
const offline: LampEvent = { kind: 'offline', at: AT };
const fault = (code: FaultCode, active: boolean): LampEvent => ({ kind: 'report', channel: 'event', report: { ts: AT, code, active }, at: AT });
const telemetry = (report: LampTelemetryMessage): LampEvent => ({ kind: 'report', channel: 'telemetry', report, at: AT });
const sending = (action: string): LampEvent => ({ kind: 'sending', action });
const answered = (action: string, params: unknown, delivered: boolean): LampEvent => ({ kind: 'answered', action, params, delivered });

describe('lamp status rules', () => {
  it('a dispatch moves the lamp to distributing, then succeeded with the commanded switch and level', () => {
    const after = applyLampEvents(lamp(), [sending('dim')]);
    expect(after.status).toBe(LampStatus.Distributing);
    const delivered = applyLampEvents(after, [answered('dim', { level: 40 }, true)]);
    expect(delivered).toMatchObject({ status: LampStatus.DistributionSucceeded, switchState: 1, bri: 40 });
  });

  it('a refused or expired command marks the lamp failed and leaves its switch alone', () => {
    expect(applyLampEvents(lamp({ status: LampStatus.Distributing, switchState: 1 }), [answered('on', {}, false)])).toMatchObject({
      status: LampStatus.DistributionFailed,
      switchState: 1,
    });
  });

  it('the Last Will makes the lamp offline whatever its status', () => {
    for (const status of [LampStatus.Normal, LampStatus.Distributing, LampStatus.DistributionSucceeded]) {
      expect(applyLampEvents(lamp({ status }), [offline])).toMatchObject({
        status: LampStatus.Offline,
        networkStatus: OnlineState.Offline,
        reportedAt: null,
      });
    }
  });

  it('an online state restores normal, but keeps a dispatch status until the next dispatch', () => {
    const online = state({ online: true, on: true, level: 80, gatewayId: 'GW-7' });
    expect(applyLampEvents(lamp({ status: LampStatus.Offline, networkStatus: OnlineState.Offline }), [online])).toMatchObject({
      status: LampStatus.Normal,
      networkStatus: OnlineState.Online,
      switchState: 1,
      bri: 80,
      gatewayId: 'GW-7',
    });
    expect(applyLampEvents(lamp({ status: LampStatus.Synchronizing }), [online]).status).toBe(LampStatus.Normal);
    for (const status of [LampStatus.Distributing, LampStatus.DistributionFailed, LampStatus.DistributionSucceeded]) {
      expect(applyLampEvents(lamp({ status }), [online]).status).toBe(status);
    }
  });

  it('fault events add and clear codes, kept sorted and unique', () => {
    const raised = applyLampEvents(lamp(), [
      fault(FaultCode.TemperatureHigh, true),
      fault(FaultCode.VoltageLow, true),
      fault(FaultCode.TemperatureHigh, true),
    ]);
    expect(raised.faults).toEqual([FaultCode.VoltageLow, FaultCode.TemperatureHigh]);
    expect(applyLampEvents(raised, [fault(FaultCode.VoltageLow, false)]).faults).toEqual([FaultCode.TemperatureHigh]);
  });

  it('reports only the fields that changed', () => {
    const before = lamp({ telemetry: { ts: AT, voltage: 230, current: 0.4, power: 90, powerFactor: 0.9, signal: -70 } });
    const after = applyLampEvents(before, [offline]);
    expect(changedLampFields(before, after)).toEqual({ status: LampStatus.Offline, networkStatus: OnlineState.Offline });
    expect(changedLampFields(before, { ...before, telemetry: { ...before.telemetry! } })).toEqual({});
  });
});

describe('lamp commands', () => {
  it('maps dispatch actions to the contract commands', () => {
    expect(lampCommandOf('on', {})).toEqual({ type: 'switch', params: { on: true } });
    expect(lampCommandOf('off', null)).toEqual({ type: 'switch', params: { on: false } });
    expect(lampCommandOf('dim', { level: 20 })).toEqual({ type: 'dim', params: { level: 20 } });
    expect(lampCommandOf('dim', { level: 30 })).toBeNull();
    expect(lampCommandOf('blink', {})).toBeNull();
  });

  it('dimming to level 0 is off', () => {
    expect(fieldsAfterCommand({ type: 'dim', params: { level: 0 } })).toEqual({ switchState: 0, bri: 0 });
    expect(fieldsAfterCommand({ type: 'switch', params: { on: true } })).toEqual({ switchState: 1 });
  });
});

describe('sync', () => {
  it('is synchronizing (-1) while out; a delivered sync waits for the state report, a failed one ends at once', () => {
    const syncing = applyLampEvents(lamp({ status: LampStatus.DistributionSucceeded }), [sending('sync')]);
    expect(syncing.status).toBe(LampStatus.Synchronizing);
    expect(applyLampEvents(syncing, [answered('sync', {}, true)]).status).toBe(LampStatus.Synchronizing);
    const reported = state({ online: true, on: false, level: 0 });
    expect(applyLampEvents(syncing, [answered('sync', {}, true), reported]).status).toBe(LampStatus.Normal);
    expect(applyLampEvents(syncing, [answered('sync', null, false)]).status).toBe(LampStatus.Normal);
    expect(applyLampEvents({ ...syncing, networkStatus: OnlineState.Offline }, [answered('sync', null, false)]).status).toBe(LampStatus.Offline);
    expect(lampCommandOf('sync', {})).toEqual({ type: 'sync', params: {} });
    expect(applyLampEvents(lamp(), [sending('dim')]).status).toBe(LampStatus.Distributing);
  });
});

describe('lamp readings', () => {
  const reading = (ts: string, power: number) => ({ ts, voltage: 230, current: 0.4, power, powerFactor: 0.9, signal: -70 });
  it('keeps the newest reading: a late or redelivered older one does not replace it', () => {
    const stored = lamp({ telemetry: reading('2024-11-21T10:00:10.000Z', 90) });
    const late = applyLampEvents(stored, [telemetry(reading('2024-11-21T10:00:05.000Z', 10))]);
    expect(late.telemetry?.power).toBe(90);
    expect(late.reportedAt).toBe(AT);
    const newer = applyLampEvents(stored, [telemetry(reading('2024-11-21T10:00:20.000Z', 40))]);
    expect(newer.telemetry?.power).toBe(40);
  });

  it('moves on when the stored reading was stamped ahead of time (a lamp whose clock was reset)', () => {
    const stored = lamp({ telemetry: reading('2030-01-01T00:00:00.000Z', 90) });
    expect(applyLampEvents(stored, [telemetry(reading('2024-11-21T09:59:59.000Z', 30))]).telemetry?.power).toBe(30);
  });
});

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
    const distributing = lamp({ status: LampStatus.Distributing, switchState: 1, bri: 60 });
    const body = lampCommandOf('schedule', schedule)!;
    expect(fieldsAfterCommand(body)).toEqual({});
    expect(applyLampEvents(distributing, [answered('schedule', schedule, true)])).toMatchObject({
      status: LampStatus.DistributionSucceeded,
      switchState: 1,
      bri: 60,
    });
  });
});

describe('commands against their declared schemas', () => {
  const ajv = new Ajv({ strict: false });
  const valid = (type: string, params: unknown) => ajv.validate(LAMP_FAMILY.commands[type as keyof typeof LAMP_FAMILY.commands].params, params);

  it('sends exactly what LAMP_FAMILY declares for every action', () => {
    for (const [action, params] of [
      ['on', {}],
      ['off', {}],
      ['dim', { level: 60 }],
      ['sync', {}],
      ['schedule', schedule],
    ] as const) {
      const body = lampCommandOf(action, params)!;
      expect({ action, valid: valid(body.type, body.params) }).toEqual({ action, valid: true });
    }
  });
});
