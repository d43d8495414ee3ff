import { MAX_DEVICE_PAYLOAD_BYTES, parseAck, parseDeviceEvent, parseLampState, parseLampTelemetry } from './device-messages';
import { topicMatches } from './mqtt-connection';

const ID = '0b6a3c52-6f43-4c1e-9a6e-2f1f4f3b9a10';
const buf = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('device message parsing', () => {
  it('accepts an ack and keeps only its contract fields', () => {
    expect(parseAck(buf({ id: ID, ok: true, extra: 1 }))).toEqual({ id: ID, ok: true });
    expect(parseAck(buf({ id: ID.toUpperCase(), ok: false, error: 'relay stuck' }))).toEqual({ id: ID, ok: false, error: 'relay stuck' });
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
    expect(parseAck(buf(payload))).toBeNull();
  });

  it('refuses payloads over the size limit before parsing them', () => {
    expect(parseAck(Buffer.alloc(MAX_DEVICE_PAYLOAD_BYTES + 1, 0x20))).toBeNull();
  });

  it('accepts an online state and the Last Will', () => {
    expect(parseLampState(buf({ online: true, on: true, level: 60, gatewayId: 'GW-1', softwareVersion: '1.2', totalIlluminationHours: 10 }))).toEqual(
      {
        online: true,
        on: true,
        level: 60,
        gatewayId: 'GW-1',
        softwareVersion: '1.2',
        totalIlluminationHours: 10,
      },
    );
    expect(parseLampState(buf({ online: false }))).toEqual({ online: false });
  });

  it.each([
    ['a level that is not a dimming level', { online: true, on: true, level: 50 }],
    ['no switch', { online: true, level: 20 }],
    ['online that is not a boolean', { online: 'yes', on: true, level: 20 }],
    ['negative hours', { online: true, on: true, level: 20, totalIlluminationHours: -1 }],
    ['a gateway id too long', { online: true, on: true, level: 20, gatewayId: 'x'.repeat(65) }],
  ])('refuses a state with %s', (_label, payload) => {
    expect(parseLampState(buf(payload))).toBeNull();
  });

  it('accepts telemetry with finite readings and drops unknown keys', () => {
    const telemetry = { ts: '2024-11-21T10:00:00.000Z', voltage: 229.5, current: 0.41, power: 90.1, powerFactor: 0.95, signal: -71 };
    expect(parseLampTelemetry(buf({ ...telemetry, secret: 'x' }))).toEqual(telemetry);
    expect(parseLampTelemetry(buf({ ...telemetry, powerFactor: 1.5 }))).toBeNull();
    expect(parseLampTelemetry(buf({ ...telemetry, voltage: '230' }))).toBeNull();
    expect(parseLampTelemetry(buf({ ...telemetry, ts: 'yesterday' }))).toBeNull();
  });

  it('accepts fault events with the spec fault codes only', () => {
    expect(parseDeviceEvent(buf({ ts: '2024-11-21T10:00:00Z', code: 5, active: true }))).toEqual({
      ts: '2024-11-21T10:00:00Z',
      code: 5,
      active: true,
    });
    expect(parseDeviceEvent(buf({ ts: '2024-11-21T10:00:00Z', code: 9, active: true }))).toBeNull();
    expect(parseDeviceEvent(buf({ ts: '2024-11-21T10:00:00Z', code: 5 }))).toBeNull();
  });
});

describe('topic filters', () => {
  it('matches single-level and multi-level wildcards', () => {
    expect(topicMatches('city/v1/lamp/+/ack'.split('/'), 'city/v1/lamp/L-1/ack')).toBe(true);
    expect(topicMatches('city/v1/lamp/+/ack'.split('/'), 'city/v1/lamp/L-1/state')).toBe(false);
    expect(topicMatches('city/v1/lamp/+/ack'.split('/'), 'city/v1/lamp/L-1/ack/x')).toBe(false);
    expect(topicMatches('city/#'.split('/'), 'city/v1/lamp/L-1/ack')).toBe(true);
  });
});
