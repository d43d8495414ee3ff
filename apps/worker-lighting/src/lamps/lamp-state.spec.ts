import { FaultCode, LampStatus, OnlineState } from '@sc/contracts';
import { answerEvent, fieldsAfterCommand, lampCommandOf, sendingEvent } from './lamp-commands';
import { applyLampEvents, changedLampFields, type LampFields } from './lamp-state';

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

describe('lamp status rules', () => {
  it('a dispatch moves the lamp to distributing, then succeeded with the commanded switch and level', () => {
    const after = applyLampEvents(lamp(), [{ kind: 'distributing' }]);
    expect(after.status).toBe(LampStatus.Distributing);
    const delivered = applyLampEvents(after, [{ kind: 'delivered', ...fieldsAfterCommand(lampCommandOf('dim', { level: 40 })!) }]);
    expect(delivered).toMatchObject({ status: LampStatus.DistributionSucceeded, switchState: 1, bri: 40 });
  });

  it('a refused or expired command marks the lamp failed and leaves its switch alone', () => {
    expect(applyLampEvents(lamp({ status: LampStatus.Distributing, switchState: 1 }), [{ kind: 'failed' }])).toMatchObject({
      status: LampStatus.DistributionFailed,
      switchState: 1,
    });
  });

  it('the Last Will makes the lamp offline whatever its status', () => {
    for (const status of [LampStatus.Normal, LampStatus.Distributing, LampStatus.DistributionSucceeded]) {
      expect(applyLampEvents(lamp({ status }), [{ kind: 'state', state: { online: false }, at: AT }])).toMatchObject({
        status: LampStatus.Offline,
        networkStatus: OnlineState.Offline,
        reportedAt: null,
      });
    }
  });

  it('an online state restores normal, but keeps a dispatch status until the next dispatch', () => {
    const online = { kind: 'state', state: { online: true, on: true, level: 80, gatewayId: 'GW-7' }, at: AT } as const;
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
      { kind: 'fault', code: FaultCode.TemperatureHigh, active: true, at: AT },
      { kind: 'fault', code: FaultCode.VoltageLow, active: true, at: AT },
      { kind: 'fault', code: FaultCode.TemperatureHigh, active: true, at: AT },
    ]);
    expect(raised.faults).toEqual([FaultCode.VoltageLow, FaultCode.TemperatureHigh]);
    expect(applyLampEvents(raised, [{ kind: 'fault', code: FaultCode.VoltageLow, active: false, at: AT }]).faults).toEqual([
      FaultCode.TemperatureHigh,
    ]);
  });

  it('reports only the fields that changed', () => {
    const before = lamp({ telemetry: { ts: AT, voltage: 230, current: 0.4, power: 90, powerFactor: 0.9, signal: -70 } });
    const after = applyLampEvents(before, [{ kind: 'state', state: { online: false }, at: AT }]);
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
    const syncing = applyLampEvents(lamp({ status: LampStatus.DistributionSucceeded }), [sendingEvent('sync')]);
    expect(syncing.status).toBe(LampStatus.Synchronizing);
    expect(applyLampEvents(syncing, [answerEvent('sync', {}, true)]).status).toBe(LampStatus.Synchronizing);
    const reported = { kind: 'state', state: { online: true, on: false, level: 0 }, at: AT } as const;
    expect(applyLampEvents(syncing, [answerEvent('sync', {}, true), reported]).status).toBe(LampStatus.Normal);
    expect(applyLampEvents(syncing, [answerEvent('sync', null, false)]).status).toBe(LampStatus.Normal);
    expect(applyLampEvents({ ...syncing, networkStatus: OnlineState.Offline }, [answerEvent('sync', null, false)]).status).toBe(LampStatus.Offline);
    expect(lampCommandOf('sync', {})).toEqual({ type: 'sync', params: {} });
    expect(sendingEvent('dim')).toEqual({ kind: 'distributing' });
  });
});

describe('lamp readings', () => {
  const reading = (ts: string, power: number) => ({ ts, voltage: 230, current: 0.4, power, powerFactor: 0.9, signal: -70 });
  it('keeps the newest reading: a late or redelivered older one does not replace it', () => {
    const stored = lamp({ telemetry: reading('2024-11-21T10:00:10.000Z', 90) });
    const late = applyLampEvents(stored, [{ kind: 'telemetry', telemetry: reading('2024-11-21T10:00:05.000Z', 10), at: AT }]);
    expect(late.telemetry?.power).toBe(90);
    expect(late.reportedAt).toBe(AT);
    const newer = applyLampEvents(stored, [{ kind: 'telemetry', telemetry: reading('2024-11-21T10:00:20.000Z', 40), at: AT }]);
    expect(newer.telemetry?.power).toBe(40);
  });

  it('moves on when the stored reading was stamped ahead of time (a lamp whose clock was reset)', () => {
    const stored = lamp({ telemetry: reading('2030-01-01T00:00:00.000Z', 90) });
    expect(applyLampEvents(stored, [{ kind: 'telemetry', telemetry: reading('2024-11-21T09:59:59.000Z', 30), at: AT }]).telemetry?.power).toBe(30);
  });
});
