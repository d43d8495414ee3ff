import { FaultCode, LampStatus, OnlineState } from '@sc/contracts';
import { fieldsAfterCommand, lampCommandOf } from './lamp-commands';
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
