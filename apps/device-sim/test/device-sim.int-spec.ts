import { DeviceFamily, FaultCode, MqttChannel, mqttTopics, type AckMessage, type LampTelemetryMessage } from '@sc/contracts';
import { waitFor, testMqttLogin } from '@sc/testing';
import mqtt, { type MqttClient } from 'mqtt';
import { randomBytes, randomUUID } from 'node:crypto';
import { startBroadcastFleet, startFleet, startStripFleet, type BroadcastFleet, type Fleet, type StripFleet } from '../src';

// Topics are fixed by the contract, so each run uses lamp codes of its own.
const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const runPrefix = () => `T${randomBytes(4).toString('hex')}-`;
const lampTopic = (code: string, channel: MqttChannel) => mqttTopics.of(DeviceFamily.Lamp, code, channel);
const inAMinute = () => new Date(Date.now() + 60_000).toISOString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The platform's side of the contract: sends commands, records what devices of one family and one run publish. */
class Platform {
  readonly received: { code: string; channel: MqttChannel; body: unknown }[] = [];

  private constructor(
    private readonly client: MqttClient,
    private readonly prefix: string,
    private readonly family: DeviceFamily,
  ) {
    client.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      if (!parsed || parsed.family !== this.family || !parsed.deviceId.startsWith(this.prefix)) return;
      this.received.push({ code: parsed.deviceId, channel: parsed.channel, body: payload.length ? JSON.parse(payload.toString()) : null });
    });
  }

  static async connect(prefix: string, family = DeviceFamily.Lamp): Promise<Platform> {
    // MQTT 5 so the subscription can skip the broker's retained messages of other runs (retain handling 2).
    const client = await mqtt.connectAsync(MQTT_URL, { protocolVersion: 5, clientId: `${prefix}${family}-platform`, ...testMqttLogin() });
    const platform = new Platform(client, prefix, family);
    // QoS 0 deliveries are not held in the broker's per-client queue, which would drop a 5,000-ack burst beyond its limit.
    await client.subscribeAsync(
      [MqttChannel.Ack, MqttChannel.State, MqttChannel.Telemetry, MqttChannel.Event].map((c) => mqttTopics.all(family, c)),
      { qos: 0, rh: 2 },
    );
    return platform;
  }

  of<T>(code: string, channel: MqttChannel): T[] {
    return this.received.filter((m) => m.code === code && m.channel === channel).map((m) => m.body as T);
  }

  acksFor(code: string, id: string): AckMessage[] {
    return this.of<AckMessage>(code, MqttChannel.Ack).filter((a) => a.id === id);
  }

  send(code: string, body: unknown): Promise<unknown> {
    const topic = mqttTopics.of(this.family, code, MqttChannel.Cmd);
    return this.client.publishAsync(topic, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 });
  }

  end(): Promise<void> {
    return this.client.endAsync();
  }
}

/** What a newcomer subscribing to the topic gets as retained message (undefined when there is none). */
async function retained(topic: string): Promise<unknown> {
  const client = await mqtt.connectAsync(MQTT_URL, { clientId: `probe-${randomUUID()}`, ...testMqttLogin() });
  try {
    const got = new Promise<unknown>((resolve) => {
      client.on('message', (_t, payload, packet) => {
        if (packet.retain) resolve(payload.length ? JSON.parse(payload.toString()) : undefined);
      });
      setTimeout(() => resolve(undefined), 500);
    });
    await client.subscribeAsync(topic, { qos: 1 });
    return await got;
  } finally {
    await client.endAsync();
  }
}

describe('a fleet with a connection per lamp', () => {
  const prefix = runPrefix();
  let platform: Platform;
  let fleet: Fleet;
  let codes: readonly string[];

  beforeAll(async () => {
    platform = await Platform.connect(prefix);
    fleet = await startFleet({ mqttUrl: MQTT_URL, lamps: { count: 4, prefix }, ackLatencyMs: { min: 5, max: 30 }, telemetryIntervalMs: 1000 });
    codes = fleet.codes;
  });

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await platform?.end();
    expect(await retained(lampTopic(codes[0], MqttChannel.State))).toBeUndefined();
  });

  it('publishes each lamp state retained on connect', async () => {
    expect(fleet.lamp(codes[0])).toMatchObject({ individual: true, online: true });
    expect(await retained(lampTopic(codes[0], MqttChannel.State))).toEqual({
      online: true,
      on: expect.any(Boolean),
      level: expect.any(Number),
      gatewayId: `${prefix}GW-0001`,
      hardwareVersion: expect.any(String),
      softwareVersion: expect.any(String),
      totalIlluminationHours: expect.any(Number),
    });
    expect(await retained(mqttTopics.of(DeviceFamily.LampGateway, `${prefix}GW-0001`, MqttChannel.State))).toMatchObject({ online: true, lamps: 4 });
  });

  it('applies a command once, acks it, then reports the new state', async () => {
    const code = codes[1];
    const id = randomUUID();
    const before = fleet.lamp(code)!.applied;
    await platform.send(code, { id, type: 'dim', params: { level: 60 }, expiresAt: inAMinute() });
    await waitFor(() => platform.acksFor(code, id)[0]);
    await waitFor(() => platform.of<{ level: number }>(code, MqttChannel.State).find((s) => s.level === 60));
    await sleep(200);
    expect(platform.acksFor(code, id)).toEqual([{ id, ok: true }]);
    expect(fleet.lamp(code)).toMatchObject({ on: true, level: 60, applied: before + 1 });
    expect(await retained(lampTopic(code, MqttChannel.State))).toMatchObject({ online: true, on: true, level: 60 });
  });

  it('acks a redelivered id again with the first answer without applying it again', async () => {
    const code = codes[2];
    const id = randomUUID();
    const before = fleet.stats;
    const command = { id, type: 'switch', params: { on: false }, expiresAt: inAMinute() };
    await platform.send(code, command);
    await platform.send(code, command);
    await waitFor(() => (platform.acksFor(code, id).length === 2 ? true : undefined));
    // A third delivery after the first ack went out.
    await platform.send(code, command);
    await waitFor(() => (platform.acksFor(code, id).length === 3 ? true : undefined));
    expect(platform.acksFor(code, id)).toEqual([
      { id, ok: true },
      { id, ok: true },
      { id, ok: true },
    ]);
    const after = fleet.stats;
    expect(after.commandsApplied - before.commandsApplied).toBe(1);
    expect(after.duplicatesIgnored - before.duplicatesIgnored).toBe(2);
    expect(fleet.lamp(code)).toMatchObject({ on: false, level: 0 });
  });

  it('refuses an expired command and leaves the lamp as it was', async () => {
    const code = codes[3];
    const id = randomUUID();
    const before = fleet.lamp(code)!;
    await platform.send(code, {
      id,
      type: 'dim',
      params: { level: before.level === 20 ? 40 : 20 },
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(await waitFor(() => platform.acksFor(code, id)[0])).toEqual({ id, ok: false, error: 'expired' });
    expect(fleet.lamp(code)).toMatchObject({ on: before.on, level: before.level, applied: before.applied });
  });

  it('answers a malformed command with a readable id, drops one without, and keeps serving', async () => {
    const code = codes[0];
    const bad = randomUUID();
    const before = fleet.stats;
    await platform.send(code, 'this is not json');
    await platform.send(code, { id: bad, type: 'dim', params: { level: 33 }, expiresAt: inAMinute() });
    expect(await waitFor(() => platform.acksFor(code, bad)[0])).toEqual({ id: bad, ok: false, error: 'bad command' });
    const good = randomUUID();
    await platform.send(code, { id: good, type: 'switch', params: { on: true }, expiresAt: inAMinute() });
    expect(await waitFor(() => platform.acksFor(code, good)[0])).toEqual({ id: good, ok: true });
    const after = fleet.stats;
    expect(after.commandsUnreadable - before.commandsUnreadable).toBe(1);
    expect(after.commandsRejected - before.commandsRejected).toBe(1);
  });

  it('sends telemetry with sane values from every lamp', async () => {
    await waitFor(() => (codes.every((c) => platform.of(c, MqttChannel.Telemetry).length > 0) ? true : undefined), 3000);
    for (const code of codes) {
      const [t] = platform.of<LampTelemetryMessage>(code, MqttChannel.Telemetry);
      expect(Math.abs(Date.parse(t.ts) - Date.now())).toBeLessThan(10_000);
      expect(t.voltage).toBeGreaterThan(215);
      expect(t.voltage).toBeLessThan(235);
      expect(t.power).toBeGreaterThanOrEqual(0);
      expect(t.power).toBeLessThan(110);
      expect(t.powerFactor).toBeGreaterThanOrEqual(0.9);
      expect(t.powerFactor).toBeLessThanOrEqual(0.99);
      expect(t.current).toBeCloseTo(t.power / (t.voltage * t.powerFactor), 2);
      expect(t.signal).toBeGreaterThanOrEqual(-100);
      expect(t.signal).toBeLessThanOrEqual(-60);
    }
    expect(fleet.stats.telemetrySent).toBeGreaterThanOrEqual(codes.length);
  });

  it('publishes injected faults as events, raised and cleared', async () => {
    const code = codes[1];
    await fleet.raiseFault(code, FaultCode.TemperatureHigh);
    expect(fleet.lamp(code)!.faults).toEqual([FaultCode.TemperatureHigh]);
    await fleet.clearFault(code, FaultCode.TemperatureHigh);
    const events = await waitFor(() => {
      const seen = platform.of<{ ts: string; code: number; active: boolean }>(code, MqttChannel.Event);
      return seen.length === 2 ? seen : undefined;
    });
    expect(events).toEqual([
      { ts: expect.any(String), code: FaultCode.TemperatureHigh, active: true },
      { ts: expect.any(String), code: FaultCode.TemperatureHigh, active: false },
    ]);
    expect(fleet.lamp(code)!.faults).toEqual([]);
    await expect(fleet.raiseFault(code, 99 as FaultCode)).rejects.toThrow('not a fault code');
  });

  it('drops off through its Last Will when taken offline, and comes back', async () => {
    const code = codes[2];
    await fleet.takeOffline(code);
    // Nothing but the broker publishes this: the lamp's socket just closed.
    await waitFor(() => platform.of<{ online: boolean }>(code, MqttChannel.State).find((s) => s.online === false));
    expect(await retained(lampTopic(code, MqttChannel.State))).toEqual({ online: false });
    const id = randomUUID();
    await platform.send(code, { id, type: 'switch', params: { on: true }, expiresAt: inAMinute() });
    await sleep(300);
    expect(platform.acksFor(code, id)).toEqual([]);

    await fleet.bringOnline(code);
    expect(fleet.lamp(code)!.online).toBe(true);
    expect(await retained(lampTopic(code, MqttChannel.State))).toMatchObject({ online: true });
  });
});

describe.each([true, false])('failure rate and offline fraction (connection per lamp: %s)', (individualConnections) => {
  const prefix = runPrefix();
  let platform: Platform;
  let fleet: Fleet;

  beforeAll(async () => {
    platform = await Platform.connect(prefix);
    fleet = await startFleet({
      mqttUrl: MQTT_URL,
      lamps: { count: 4, prefix },
      ackLatencyMs: { min: 0, max: 0 },
      failureRate: 1,
      offlineFraction: 0.5,
      telemetryIntervalMs: 0,
      individualConnections,
    });
  });

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await platform?.end();
  });

  it('reports the offline share offline and fails every command of the others with a driver fault', async () => {
    const offline = fleet.codes.filter((c) => !fleet.lamp(c)!.online);
    const online = fleet.codes.filter((c) => fleet.lamp(c)!.online);
    expect(offline).toHaveLength(2);
    for (const code of offline) expect(await retained(lampTopic(code, MqttChannel.State))).toEqual({ online: false });

    const ids = new Map(fleet.codes.map((c) => [c, randomUUID()]));
    for (const [code, id] of ids) await platform.send(code, { id, type: 'switch', params: { on: true }, expiresAt: inAMinute() });
    for (const code of online) {
      expect(await waitFor(() => platform.acksFor(code, ids.get(code)!)[0])).toEqual({ id: ids.get(code), ok: false, error: 'driver fault' });
      expect(fleet.lamp(code)!.applied).toBe(0);
    }
    await sleep(200);
    for (const code of offline) expect(platform.acksFor(code, ids.get(code)!)).toEqual([]);
    // A lamp with its own connection that is offline never hears the command; one behind a live gateway loses it there.
    expect(fleet.stats).toMatchObject({ commandsFailed: 2, commandsApplied: 0, commandsLostOffline: individualConnections ? 0 : 2 });
  });
});

describe('heartbeats', () => {
  const prefix = runPrefix();
  let lamps: Platform;
  let gateways: Platform;
  let fleet: Fleet;

  beforeAll(async () => {
    [lamps, gateways] = await Promise.all([Platform.connect(prefix), Platform.connect(prefix, DeviceFamily.LampGateway)]);
    fleet = await startFleet({ mqttUrl: MQTT_URL, lamps: { count: 3, prefix }, telemetryIntervalMs: 0, heartbeatMs: 400, offlineFraction: 1 / 3 });
  });

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await Promise.all([lamps?.end(), gateways?.end()]);
  });

  it('a gateway, and an online device with no readings to send, state again that they are connected once per heartbeat', async () => {
    await sleep(1300);
    const [gateway] = fleet.gatewayIds;
    expect(gateways.of(gateway, MqttChannel.State).length).toBeGreaterThanOrEqual(3);
    for (const code of fleet.codes) {
      const states = lamps.of<{ online: boolean }>(code, MqttChannel.State);
      // The offline one says nothing more once its gateway has reported it offline.
      if (fleet.lamp(code)!.online) expect(states.filter((s) => s.online).length).toBeGreaterThanOrEqual(3);
      else expect(states.filter((s) => s.online)).toEqual([]);
    }
  });
});

describe('a 5,000-lamp fleet multiplexed over gateway connections', () => {
  const prefix = runPrefix();
  const size = 5000;
  let platform: Platform;
  let fleet: Fleet;
  let startMs = 0;

  beforeAll(async () => {
    platform = await Platform.connect(prefix);
    const started = Date.now();
    fleet = await startFleet({ mqttUrl: MQTT_URL, lamps: { count: size, prefix }, ackLatencyMs: { min: 10, max: 100 }, telemetryIntervalMs: 0 });
    startMs = Date.now() - started;
  }, 60_000);

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await platform?.end();
  }, 60_000);

  // Speed is for the benchmarks (bench/lighting-fanout starts simulated fleets of 10k-100k lamps), not a timed test:
  // the start time is only printed beside the ack time.
  it('starts with one connection per 50 lamps', () => {
    expect(fleet.codes).toHaveLength(size);
    expect(fleet.gatewayIds).toHaveLength(size / 50);
    expect(fleet.lamp(fleet.codes[0])!.individual).toBe(false);
  });

  it('acks 5,000 commands, each applied once', async () => {
    const ids = new Map(fleet.codes.map((c) => [c, randomUUID()]));
    const sent = Date.now();
    await Promise.all([...ids].map(([code, id]) => platform.send(code, { id, type: 'dim', params: { level: 80 }, expiresAt: inAMinute() })));
    await waitFor(() => (platform.received.filter((m) => m.channel === MqttChannel.Ack).length >= size ? true : undefined), 30_000);
    const ackMs = Date.now() - sent;
    const acks = platform.received.filter((m) => m.channel === MqttChannel.Ack);
    expect(new Set(acks.map((a) => (a.body as AckMessage).id)).size).toBe(size);
    expect(acks.every((a) => (a.body as AckMessage).ok && (a.body as AckMessage).id === ids.get(a.code))).toBe(true);
    expect(fleet.stats).toMatchObject({ commandsReceived: size, commandsApplied: size, duplicatesIgnored: 0 });
    expect(fleet.codes.every((c) => fleet.lamp(c)!.level === 80)).toBe(true);
    process.stdout.write(`device-sim: ${size} lamps started in ${startMs} ms, ${size} commands acked in ${ackMs} ms\n`);
  }, 60_000);

  it('reports a multiplexed lamp offline through its gateway', async () => {
    const code = fleet.codes[123];
    await fleet.takeOffline(code);
    expect(await retained(lampTopic(code, MqttChannel.State))).toEqual({ online: false });
    await fleet.bringOnline(code);
    expect(await retained(lampTopic(code, MqttChannel.State))).toMatchObject({ online: true, level: 80 });
  });
});

describe('strip lights on the same kit', () => {
  const prefix = runPrefix();
  const stripTopic = (code: string) => mqttTopics.of(DeviceFamily.Strip, code, MqttChannel.State);
  let platform: Platform;
  let fleet: StripFleet;
  let codes: readonly string[];

  beforeAll(async () => {
    platform = await Platform.connect(prefix, DeviceFamily.Strip);
    fleet = await startStripFleet({
      mqttUrl: MQTT_URL,
      strips: [`${prefix}S1`, `${prefix}S2`],
      gatewayPrefix: `${prefix}SGW-`,
      ackLatencyMs: { min: 5, max: 20 },
      syncMs: 300,
      telemetryIntervalMs: 200,
    });
    codes = fleet.codes;
  });

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await platform?.end();
  });

  it('reports synchronizing after connecting, then its zones, through its gateway', async () => {
    await waitFor(() => platform.of<{ synchronizing: boolean }>(codes[0], MqttChannel.State).find((s) => !s.synchronizing));
    expect(platform.of(codes[0], MqttChannel.State)[0]).toMatchObject({ online: true, synchronizing: true, gatewayId: `${prefix}SGW-0001` });
    expect(await retained(stripTopic(codes[0]))).toMatchObject({ online: true, synchronizing: false, bri: 0 });
    expect(await retained(mqttTopics.of(DeviceFamily.LampGateway, `${prefix}SGW-0001`, MqttChannel.State))).toEqual({ online: true, strips: 2 });
    await waitFor(() => (codes.every((c) => platform.of(c, MqttChannel.Telemetry).length > 0) ? true : undefined), 3000);
  });

  it('applies an effect once per id and refuses an effect of another type', async () => {
    const code = codes[1];
    const id = randomUUID();
    const command = { id, type: 'effect', params: { type: 6, color: '#ff8800', zones: ['L', 'R'] }, expiresAt: inAMinute() };
    await platform.send(code, command);
    await platform.send(code, command);
    await waitFor(() => (platform.acksFor(code, id).length === 2 ? true : undefined));
    expect(platform.acksFor(code, id)).toEqual([
      { id, ok: true },
      { id, ok: true },
    ]);
    expect(fleet.strip(code)).toMatchObject({ applied: 1, bri: 100, zones: { L: { on: true, type: 6, color: '#ff8800' } } });
    expect(fleet.stats).toMatchObject({ commandsApplied: 1, duplicatesIgnored: 1 });
    const bad = randomUUID();
    await platform.send(code, { id: bad, type: 'effect', params: { type: 2, effect: -1, zones: ['L'] }, expiresAt: inAMinute() });
    expect(await waitFor(() => platform.acksFor(code, bad)[0])).toEqual({ id: bad, ok: false, error: 'bad command' });
  });

  it('publishes faults and is reported offline by its gateway', async () => {
    const code = codes[0];
    await fleet.raiseFault(code, FaultCode.BLedFailure);
    await waitFor(() => platform.of(code, MqttChannel.Event)[0]);
    expect(fleet.strip(code)!.faults).toEqual([FaultCode.BLedFailure]);
    await fleet.takeOffline(code);
    expect(await retained(stripTopic(code))).toEqual({ online: false });
    await fleet.bringOnline(code);
    expect(await retained(stripTopic(code))).toMatchObject({ online: true });
  });
});

describe('broadcast terminals with activity of their own', () => {
  const prefix = runPrefix();
  let platform: Platform;
  let fleet: BroadcastFleet | undefined;

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await platform?.end();
  });

  it("change their occupancy by themselves at the fleet's rate, taking turns, each change reported once", async () => {
    platform = await Platform.connect(prefix, DeviceFamily.Broadcast);
    fleet = await startBroadcastFleet({ mqttUrl: MQTT_URL, terminals: { count: 10, prefix }, activityPerSecond: 40 });
    expect(fleet.codes).toHaveLength(10);
    expect(fleet.codes[0]).toBe(`${prefix}00001`);
    const started = Date.now();
    await sleep(1000);
    // Stopped on request (a benchmark's sweep sets the rate as it goes): no further change.
    fleet.setActivity(0);
    await sleep(100);
    const stoppedAt = fleet.stats.changesSent;
    await sleep(300);
    expect(fleet.stats.changesSent).toBe(stoppedAt);
    const busyAtEnd = new Map<string, boolean>();
    const running = fleet;
    fleet = undefined;
    // Stopping ends the activity, then empties the retained states (an empty message per terminal).
    await running.stop({ clearRetained: true });
    const seconds = (Date.now() - started) / 1000;
    for (const code of running.codes) busyAtEnd.set(code, running.terminal(code)!.occupancy !== 'idle');
    const { changesSent } = running.stats;
    // 40 a second over 10 terminals: about 4 turns each.
    expect(changesSent).toBeGreaterThanOrEqual(20);
    expect(changesSent).toBeLessThanOrEqual(Math.ceil(40 * seconds) + 10);
    type State = { occupancy: string; playing: { since: string } | null } | null;
    await waitFor(() => (running.codes.every((code) => platform.of<State>(code, MqttChannel.State).at(-1) === null) ? true : undefined));
    let changes = 0;
    for (const code of running.codes) {
      // The first state (idle, on connect), then one per change, busy and idle in turn (heartbeats repeat a state).
      const busy = platform
        .of<State>(code, MqttChannel.State)
        .filter((m): m is NonNullable<State> => m !== null)
        .map((m) => m.occupancy !== 'idle');
      expect(busy[0]).toBe(false);
      expect(busy.at(-1)).toBe(busyAtEnd.get(code));
      changes += busy.filter((b, i) => i > 0 && b !== busy[i - 1]).length;
    }
    expect(changes).toBe(changesSent);
  });
});
