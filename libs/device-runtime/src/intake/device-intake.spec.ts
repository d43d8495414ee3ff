import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { DeviceType, LAMP_FAMILY, LAMP_GATEWAY_FAMILY } from '@sc/contracts';
import { ReportParser } from '../family/report-parser';
import { Counters } from '../infra/counters';
import { DeviceIntake } from './device-intake';
import type { IntakeWriter } from './intake-writer';
import { KnownDevices } from './known-devices';

const ID = '0b6a3c52-6f43-4c1e-9a6e-2f1f4f3b9a10';
const FAMILIES = [LAMP_FAMILY, LAMP_GATEWAY_FAMILY];
const RETRY_MS = 80;
/** Compiling the schemas takes a moment: once for the file. */
const PARSER = new ReportParser(FAMILIES);

/** The registry in memory: devices of the `device` table by type, and lamp gateways in their own table. */
class Registry {
  devices: { id: number; code: string; type: DeviceType }[] = [];
  gateways: { id: number; code: string }[] = [];
  readonly pool = {
    query: async (sql: string, params: unknown[] = []) => {
      if (sql.includes('lamp_gateway')) {
        const codes = params[0] as string[] | undefined;
        return { rows: this.gateways.filter((g) => !codes || codes.includes(g.code)) };
      }
      if (params.length === 1) return { rows: this.devices.filter((d) => (params[0] as DeviceType[]).includes(d.type)) };
      const [types, codes] = params as [DeviceType[], string[]];
      return { rows: this.devices.filter((d) => codes.some((code, i) => code === d.code && types[i] === d.type)) };
    },
  } as unknown as Pool;
}

function setUp() {
  const registry = new Registry();
  registry.devices = [{ id: 1, code: 'L-1', type: DeviceType.SingleLamp }];
  registry.gateways = [{ id: 50, code: 'GW-1' }];
  const devices = new KnownDevices(registry.pool, FAMILIES, RETRY_MS, 1);
  const writer = { addEvent: jest.fn(), addAck: jest.fn() };
  const counters = new Counters();
  const warn = jest.fn();
  const logger = { warn, info: jest.fn(), debug: jest.fn(), error: jest.fn() } as unknown as Logger;
  const intake = new DeviceIntake(FAMILIES, PARSER, devices, writer as unknown as IntakeWriter, counters, logger, {
    mqttUrl: 'mqtt://127.0.0.1:1',
    name: 'test',
    group: 'test',
    connections: 1,
    window: 10,
  });
  /** Delivers one message as a connection would, with its own acknowledgement. */
  const deliver = (topic: string, payload: unknown) => {
    const ack = jest.fn();
    intake.receive(topic, Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload)), ack);
    return ack;
  };
  return { registry, devices, writer, counters, warn, intake, deliver };
}

const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));
const STATE = { online: true, on: true, level: 60 };

describe('DeviceIntake.receive', () => {
  it('hands a known device’s report, Last Will and ack to the writer with their acknowledgement, which it keeps for after the write', async () => {
    const { devices, writer, counters, deliver } = setUp();
    await devices.load();
    const state = deliver('city/v1/lamp/L-1/state', { ...STATE, extra: 'dropped' });
    const will = deliver('city/v1/lamp/L-1/state', { online: false });
    const ack = deliver('city/v1/lamp/L-1/ack', { id: ID, ok: true });
    const gateway = deliver('city/v1/lamp-gateway/GW-1/state', { online: true, lamps: 3 });

    expect(writer.addEvent).toHaveBeenNthCalledWith(1, 'lamp', 1, { kind: 'report', channel: 'state', report: STATE, at: expect.any(String) }, state);
    expect(writer.addEvent).toHaveBeenNthCalledWith(2, 'lamp', 1, { kind: 'offline', at: expect.any(String) }, will);
    expect(writer.addAck).toHaveBeenCalledWith('lamp', 1, { id: ID, ok: true }, ack);
    expect(writer.addEvent).toHaveBeenNthCalledWith(3, 'lamp-gateway', 50, expect.objectContaining({ kind: 'report' }), gateway);
    for (const acknowledge of [state, will, ack, gateway]) expect(acknowledge).not.toHaveBeenCalled();
    expect(counters.snapshot()).toMatchObject({ received: 4, accepted: 4, rejected: { 'bad-topic': 0, malformed: 0, 'unknown-device': 0 } });
  });

  it.each([
    ['too few levels', 'city/v1/lamp/L-1'],
    ['another root', 'city/v2/lamp/L-1/state'],
    ['a family this worker does not serve', 'city/v1/strip/L-1/state'],
    ['a family nobody declares', 'city/v1/toaster/L-1/state'],
    ['the platform’s own command channel', 'city/v1/lamp/L-1/cmd'],
    ['an unknown channel', 'city/v1/lamp/L-1/config'],
    ['a code that cannot be a device code', 'city/v1/lamp/L 1/state'],
  ])('acknowledges and drops a message on %s as a bad topic', async (_label, topic) => {
    const { devices, writer, counters, deliver } = setUp();
    await devices.load();
    const ack = deliver(topic, STATE);
    await tick();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(writer.addEvent).not.toHaveBeenCalled();
    expect(writer.addAck).not.toHaveBeenCalled();
    expect(counters.snapshot()).toMatchObject({ received: 1, accepted: 0, rejected: { 'bad-topic': 1, malformed: 0, 'unknown-device': 0 } });
  });

  it('acknowledges an empty state (its retained message removed) without storing it or calling it malformed', async () => {
    const { devices, writer, counters, deliver } = setUp();
    await devices.load();
    const ack = deliver('city/v1/lamp/L-1/state', '');
    await tick();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(writer.addEvent).not.toHaveBeenCalled();
    expect(counters.snapshot()).toMatchObject({ accepted: 0, statesCleared: 1, rejected: { 'bad-topic': 0, malformed: 0, 'unknown-device': 0 } });
  });

  it('drops an empty message on any other channel as malformed', async () => {
    const { devices, counters, deliver } = setUp();
    await devices.load();
    deliver('city/v1/lamp/L-1/ack', '');
    await tick();
    expect(counters.snapshot().rejected.malformed).toBe(1);
  });

  it.each([
    ['not JSON', 'city/v1/lamp/L-1/state', '{"online":'],
    ['an array', 'city/v1/lamp/L-1/telemetry', '[1,2]'],
    ['a state outside the family’s schema', 'city/v1/lamp/L-1/state', { online: true, on: true, level: 55 }],
    ['an ack without a command id', 'city/v1/lamp/L-1/ack', { id: 'abc', ok: true }],
    ['a channel the family does not report on', 'city/v1/lamp-gateway/GW-1/telemetry', { ts: '2024-11-21T10:00:00Z' }],
  ])('acknowledges and drops %s as malformed', async (_label, topic, payload) => {
    const { devices, writer, counters, deliver } = setUp();
    await devices.load();
    const ack = deliver(topic, payload);
    await tick();
    expect(ack).toHaveBeenCalledTimes(1);
    expect(writer.addEvent).not.toHaveBeenCalled();
    expect(writer.addAck).not.toHaveBeenCalled();
    expect(counters.snapshot()).toMatchObject({ accepted: 0, rejected: { 'bad-topic': 0, malformed: 1, 'unknown-device': 0 } });
  });

  it('acknowledges and drops the messages of an unknown device, including a known code of another family', async () => {
    const { devices, writer, counters, deliver } = setUp();
    await devices.load();
    const acks = [deliver('city/v1/lamp/NOBODY/state', STATE), deliver('city/v1/lamp/NOBODY/ack', { id: ID, ok: true })];
    // GW-1 is a gateway, not a lamp.
    acks.push(deliver('city/v1/lamp/GW-1/state', STATE));
    await tick(30);
    for (const ack of acks) expect(ack).toHaveBeenCalledTimes(1);
    expect(writer.addEvent).not.toHaveBeenCalled();
    expect(writer.addAck).not.toHaveBeenCalled();
    expect(counters.snapshot()).toMatchObject({ received: 3, accepted: 0, rejected: { 'bad-topic': 0, malformed: 0, 'unknown-device': 3 } });
  });

  it('logs a dropped message once per reason and device code, however often it comes', async () => {
    const { devices, warn, counters, deliver } = setUp();
    await devices.load();
    for (let i = 0; i < 5; i++) {
      deliver('city/v1/lamp/L-1/state', 'garbage');
      deliver('city/v1/lamp/NOBODY/state', STATE);
    }
    deliver('city/v1/lamp/L-1/telemetry', 'garbage');
    deliver('city/v1/lamp/OTHER/state', 'garbage');
    await tick(30);
    expect(counters.snapshot().rejected).toEqual({ 'bad-topic': 0, malformed: 7, 'unknown-device': 5 });
    const logged = warn.mock.calls.map(([fields]) => `${fields.reason} ${fields.device}`);
    expect(logged.sort()).toEqual(['malformed L-1', 'malformed OTHER', 'unknown-device NOBODY']);
  });

  it('accepts a code unknown at first once it is found on a later lookup', async () => {
    const { registry, devices, writer, counters, deliver } = setUp();
    await devices.load();
    const first = deliver('city/v1/lamp/L-2/state', STATE);
    await tick(30);
    expect(first).toHaveBeenCalledTimes(1);
    expect(counters.snapshot().rejected['unknown-device']).toBe(1);

    // Registered meanwhile; within the retry interval it is still unknown, after it the next message is accepted.
    registry.devices.push({ id: 2, code: 'L-2', type: DeviceType.SingleLamp });
    const early = deliver('city/v1/lamp/L-2/state', STATE);
    await tick(5);
    expect(early).toHaveBeenCalledTimes(1);
    await tick(RETRY_MS + 20);
    const later = deliver('city/v1/lamp/L-2/state', STATE);
    await tick(30);
    expect(later).not.toHaveBeenCalled();
    expect(writer.addEvent).toHaveBeenCalledWith('lamp', 2, expect.objectContaining({ kind: 'report' }), later);
    expect(counters.snapshot()).toMatchObject({ accepted: 1, rejected: { 'unknown-device': 2 } });
    // From now on without a lookup.
    expect(devices.get('lamp', 'L-2')).toBe(2);
  });

  it('keeps the arrival order of a device’s messages that wait for its lookup', async () => {
    const { registry, writer, deliver } = setUp();
    registry.devices.push({ id: 3, code: 'L-3', type: DeviceType.SingleLamp });
    const levels = [20, 40, 60, 80, 100];
    for (const level of levels) deliver('city/v1/lamp/L-3/state', { ...STATE, level });
    await tick(30);
    expect(writer.addEvent.mock.calls.map(([, , event]) => event.report.level)).toEqual(levels);
  });

  it('passes over a stored state of a device heard live since the stored states were asked for, and acknowledges it', async () => {
    const { devices, writer, counters, intake } = setUp();
    await devices.load();
    // As while catchUp() reads the stored states.
    (intake as unknown as { heardLive: Set<string> | null }).heardLive = new Set();
    const payload = (level: number) => Buffer.from(JSON.stringify({ ...STATE, level }));
    intake.receive('city/v1/lamp/L-1/state', payload(80), jest.fn());
    const storedAck = jest.fn();
    intake.receive('city/v1/lamp/L-1/state', payload(20), storedAck, true);
    await tick();
    expect(writer.addEvent.mock.calls.map(([, , event]) => event.report.level)).toEqual([80]);
    expect(storedAck).toHaveBeenCalled();
    expect(counters.snapshot().storedSuperseded).toBe(1);
    // Once the stored states are read, nothing is passed over.
    (intake as unknown as { heardLive: Set<string> | null }).heardLive = null;
    intake.receive('city/v1/lamp/L-1/state', payload(40), jest.fn(), true);
    await tick();
    expect(writer.addEvent.mock.calls.map(([, , event]) => event.report.level)).toEqual([80, 40]);
  });
});
