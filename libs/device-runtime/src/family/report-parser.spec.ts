import { LAMP_FAMILY, LAMP_GATEWAY_FAMILY, MqttChannel, STRIP_FAMILY } from '@sc/contracts';
import { MAX_DEVICE_PAYLOAD_BYTES, ReportParser } from './report-parser';

const ID = '0b6a3c52-6f43-4c1e-9a6e-2f1f4f3b9a10';
const buf = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const parser = new ReportParser([LAMP_FAMILY, STRIP_FAMILY, LAMP_GATEWAY_FAMILY]);
const report = (family: string, channel: MqttChannel, payload: unknown) => {
  const parsed = parser.parse(family, channel, buf(payload));
  return parsed?.kind === 'report' ? parsed.report : parsed;
};
const lampState = (payload: unknown) => report('lamp', MqttChannel.State, payload);
const telemetry = (payload: unknown) => report('lamp', MqttChannel.Telemetry, payload);
const fault = (payload: unknown) => report('lamp', MqttChannel.Event, payload);
const stripState = (payload: unknown) => report('strip', MqttChannel.State, payload);
const ack = (payload: unknown) =>
  parser.parse('lamp', MqttChannel.Ack, typeof payload === 'object' && payload instanceof Buffer ? payload : buf(payload));

describe('device payloads against their family’s declared schemas', () => {
  it('accepts an ack and keeps only its contract fields', () => {
    expect(ack({ id: ID, ok: true, extra: 1 })).toEqual({ kind: 'ack', ack: { id: ID, ok: true } });
    expect(ack({ id: ID.toUpperCase(), ok: false, error: 'relay stuck' })).toEqual({ kind: 'ack', ack: { id: ID, ok: false, error: 'relay stuck' } });
    expect(ack({ id: ID, ok: false, error: 'x'.repeat(300) })).toEqual({ kind: 'ack', ack: { id: ID, ok: false, error: 'x'.repeat(255) } });
  });

  it.each([
    ['not JSON', '{"id":'],
    ['an array', [1, 2]],
    ['null', 'null'],
    ['an id that is not a command id', { id: 'abc', ok: true }],
    ['ok that is not a boolean', { id: ID, ok: 'yes' }],
    ['an error that is not text', { id: ID, ok: false, error: 42 }],
    ['an empty payload', ''],
  ])('refuses an ack with %s', (_label, payload) => {
    expect(ack(payload)).toBeNull();
  });

  it('accepts receipts before the ack, keeping only their contract fields', () => {
    expect(ack({ id: ID, receipt: { stage: 'received' } })).toEqual({ kind: 'receipt', receipt: { id: ID, receipt: { stage: 'received' } } });
    expect(ack({ id: ID.toUpperCase(), receipt: { stage: 'downloading', received: 40, total: 100, speed: 9 }, extra: 1 })).toEqual({
      kind: 'receipt',
      receipt: { id: ID, receipt: { stage: 'downloading', received: 40, total: 100 } },
    });
    // An answer with `ok` is the ack, whatever else it carries.
    expect(ack({ id: ID, ok: true, receipt: { stage: 'received' } })).toEqual({ kind: 'ack', ack: { id: ID, ok: true } });
    for (const bad of [{ stage: 'installing' }, { stage: 'downloading', received: -1 }, { received: 5 }, 'received'])
      expect(ack({ id: ID, receipt: bad })).toBeNull();
  });

  it('refuses payloads over the size limit before parsing them', () => {
    expect(ack(Buffer.alloc(MAX_DEVICE_PAYLOAD_BYTES + 1, 0x20))).toBeNull();
  });

  it('accepts an online state and the Last Will of any family', () => {
    expect(lampState({ online: true, on: true, level: 60, gatewayId: 'GW-1', softwareVersion: '1.2', totalIlluminationHours: 10 })).toEqual({
      online: true,
      on: true,
      level: 60,
      gatewayId: 'GW-1',
      softwareVersion: '1.2',
      totalIlluminationHours: 10,
    });
    for (const family of ['lamp', 'strip', 'lamp-gateway'])
      expect(parser.parse(family, MqttChannel.State, buf({ online: false }))).toEqual({ kind: 'offline' });
  });

  it.each([
    ['a level that is not a dimming level', { online: true, on: true, level: 50 }],
    ['no switch', { online: true, level: 20 }],
    ['online that is not a boolean', { online: 'yes', on: true, level: 20 }],
    ['negative hours', { online: true, on: true, level: 20, totalIlluminationHours: -1 }],
    ['a gateway id too long', { online: true, on: true, level: 20, gatewayId: 'x'.repeat(65) }],
  ])('refuses a state with %s', (_label, payload) => {
    expect(lampState(payload)).toBeNull();
  });

  it('accepts telemetry with finite readings and drops unknown keys', () => {
    const reading = { ts: '2024-11-21T10:00:00.000Z', voltage: 229.5, current: 0.41, power: 90.1, powerFactor: 0.95, signal: -71 };
    expect(telemetry({ ...reading, secret: 'x' })).toEqual(reading);
    expect(telemetry({ ...reading, powerFactor: 1.5 })).toBeNull();
    expect(telemetry({ ...reading, voltage: '230' })).toBeNull();
    expect(telemetry({ ...reading, ts: 'yesterday' })).toBeNull();
  });

  it('accepts fault events with the spec fault codes only', () => {
    expect(fault({ ts: '2024-11-21T10:00:00Z', code: 5, active: true })).toEqual({ ts: '2024-11-21T10:00:00Z', code: 5, active: true });
    expect(fault({ ts: '2024-11-21T10:00:00Z', code: 9, active: true })).toBeNull();
    expect(fault({ ts: '2024-11-21T10:00:00Z', code: 5 })).toBeNull();
  });

  it('reads only what a family declares: gateways send no telemetry, strips send their own state', () => {
    expect(parser.reads('lamp-gateway', MqttChannel.Telemetry)).toBe(false);
    expect(parser.parse('lamp-gateway', MqttChannel.Telemetry, buf({ ts: '2024-11-21T10:00:00Z' }))).toBeNull();
    expect(report('lamp-gateway', MqttChannel.State, { online: true, lamps: 38, softwareVersion: '2.4.1' })).toEqual({
      online: true,
      lamps: 38,
      softwareVersion: '2.4.1',
    });
    expect(stripState({ online: true, on: true, level: 60 })).toBeNull();
  });
});

describe('strip light state payloads', () => {
  const zone = { on: true, type: 2, effect: 5, color: '#ff8800' };

  it('reads the contract and nothing else', () => {
    const state = {
      online: true,
      bri: 50,
      zones: { L: zone, R: { ...zone, on: false, type: 1, effect: -2 } },
      synchronizing: false,
      gatewayId: 'SGW-1',
    };
    expect(stripState({ ...state, extra: 'dropped' })).toEqual(state);
  });

  it('refuses anything malformed', () => {
    const bad = [
      { online: true, bri: 101, zones: { L: zone, R: zone } },
      { online: true, bri: 50, zones: { L: zone } },
      { online: true, bri: 50, zones: { L: { ...zone, color: 'red' }, R: zone } },
      { online: true, bri: 50, zones: { L: { ...zone, type: 4 }, R: zone } },
      { online: true, bri: 50, zones: { L: { ...zone, effect: 16 }, R: zone } },
      { online: true, bri: 50, zones: { L: zone, R: zone }, synchronizing: 'yes' },
      { online: 'true', bri: 50, zones: { L: zone, R: zone } },
    ];
    for (const payload of bad) expect(stripState(payload)).toBeNull();
    expect(stripState('not json')).toBeNull();
  });
});
