import Ajv from 'ajv';
import {
  FaultCode,
  STRIP_FAMILY,
  LampStatus,
  LightEffectType,
  OnlineState,
  Zone,
  applyStripEffect,
  type StripStateMessage,
  type StripZoneState,
} from '@sc/contracts';
import { changedFields } from '@sc/device-runtime';
import { reduceStrip, stripCommandOf, stripHandler, type StripEvent, type StripFields } from './strip.handler';

const applyStripEvents = (strip: StripFields, events: readonly StripEvent[]) => events.reduce(reduceStrip, strip);
const changedStripFields = changedFields<StripFields>;
const fault = (code: FaultCode, active: boolean): StripEvent => ({ kind: 'report', channel: 'event', report: { ts: AT, code, active }, at: AT });

const AT = '2026-11-21T10:00:00.000Z';
const dark: StripZoneState = { on: false, type: 1, effect: -2, color: '#ffffff' };
const strip = (fields: Partial<StripFields> = {}): StripFields => ({
  status: LampStatus.Synchronizing,
  networkStatus: OnlineState.Offline,
  bri: 0,
  zones: null,
  telemetry: null,
  faults: [],
  reportedAt: null,
  gatewayId: '',
  hardwareVersion: '',
  softwareVersion: '',
  ...fields,
});
const state = (synchronizing: boolean): StripEvent => ({
  kind: 'report',
  channel: 'state',
  report: { online: true, bri: 50, zones: { L: { ...dark, on: true, effect: -1 }, R: dark }, synchronizing } as StripStateMessage,
  at: AT,
});

describe('strip light status rules', () => {
  it('stays synchronizing while the strip says so, then becomes normal', () => {
    const syncing = applyStripEvents(strip(), [state(true)]);
    expect(syncing).toMatchObject({ status: LampStatus.Synchronizing, networkStatus: OnlineState.Online, bri: 50, reportedAt: AT });
    expect(applyStripEvents(syncing, [state(false)]).status).toBe(LampStatus.Normal);
  });

  it('keeps a dispatch status over its own reports, goes offline on its Last Will', () => {
    for (const status of [LampStatus.Distributing, LampStatus.DistributionFailed, LampStatus.DistributionSucceeded])
      expect(applyStripEvents(strip({ status }), [state(false)]).status).toBe(status);
    expect(applyStripEvents(strip({ status: LampStatus.Normal }), [{ kind: 'offline', at: AT }])).toMatchObject({
      status: LampStatus.Offline,
      networkStatus: OnlineState.Offline,
    });
  });

  it('a delivered effect changes only the named zones; a failed one only the status', () => {
    const zones = { L: dark, R: { ...dark, color: '#00ff00' } };
    const after = applyStripEvents(strip({ status: LampStatus.Distributing, zones }), [
      { kind: 'answered', action: 'breathing', params: { type: LightEffectType.Breathing, effect: 4, zones: [Zone.Right] }, delivered: true },
    ]);
    expect(after).toMatchObject({
      status: LampStatus.DistributionSucceeded,
      zones: { L: dark, R: { on: true, type: 2, effect: 4, color: '#00ff00' } },
    });
    expect(applyStripEvents(strip({ zones }), [{ kind: 'answered', action: 'on', params: {}, delivered: false }])).toMatchObject({
      status: LampStatus.DistributionFailed,
      zones,
    });
  });

  it('adds and clears faults, and reports only what changed', () => {
    const before = strip({ status: LampStatus.Normal });
    const after = applyStripEvents(before, [
      fault(FaultCode.NotGrounded, true),
      fault(FaultCode.VoltageLow, true),
      fault(FaultCode.NotGrounded, false),
    ]);
    expect(changedStripFields(before, after)).toEqual({ faults: [FaultCode.VoltageLow], reportedAt: AT });
  });
});

describe('strip effects on zones', () => {
  it('switch inverts each zone, on/off keeps the colour, set colour lights steadily', () => {
    const zones = { L: { ...dark, color: '#123456' }, R: { on: true, type: 3, effect: 9, color: '#abcdef' } } as const;
    expect(applyStripEffect(zones, { type: 1, effect: -3, zones: [Zone.Left, Zone.Right] })).toEqual({
      L: { on: true, type: 1, effect: -1, color: '#123456' },
      R: { on: false, type: 1, effect: -2, color: '#abcdef' },
    });
    expect(applyStripEffect(null, { type: 6, color: '#ff0000', zones: [Zone.Left] })).toEqual({
      L: { on: true, type: 6, effect: null, color: '#ff0000' },
      R: dark,
    });
  });
});

describe('what strip lights announce besides their stored fields', () => {
  it('derives the status labels and the list colour from the stored fields', () => {
    const derive = stripHandler.derive!;
    expect(derive(strip({ status: LampStatus.Normal, faults: [FaultCode.VoltageHigh, FaultCode.BLedFailure] }))).toEqual({
      statusLabels: ['bLightFailure', 'voltageTooHigh'],
      color: '',
    });
    expect(derive(strip({ zones: { L: { ...dark, color: '#123456' }, R: dark } })).color).toBe('#123456');
    expect(derive(strip()).statusLabels).toEqual(['synchronizing']);
  });
});

describe('strip commands against their declared schemas', () => {
  it('sends exactly what STRIP_FAMILY declares', () => {
    const ajv = new Ajv({ strict: false });
    const effect = stripCommandOf('breathing', { type: LightEffectType.Breathing, effect: 3, zones: [Zone.Left] })!;
    expect(ajv.validate(STRIP_FAMILY.commands.effect.params, effect.params)).toBe(true);
    const colour = stripCommandOf('colour', { type: LightEffectType.SetColour, color: '#ff8800', zones: [Zone.Left, Zone.Right] })!;
    expect(ajv.validate(STRIP_FAMILY.commands.effect.params, colour.params)).toBe(true);
    expect(stripCommandOf('colour', { type: LightEffectType.SetColour, color: 'red', zones: [Zone.Left] })).toBeNull();
  });
});
