import { randomBytes, randomUUID } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import {
  Button,
  DeviceFamily,
  DeviceType,
  MqttChannel,
  MqttService,
  defineFamily,
  mqttTopics,
  type CommandMessage,
  type JsonSchema,
} from '@sc/contracts';
import { testMqttLogin, waitFor } from '@sc/testing';
import { FleetRunner, type SimulatedFamily } from '../src/kit';

const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** A family that exists only here: players that fetch a file of `bytes` in four steps, or give up on `fail`. */
const FETCH_PARAMS = {
  type: 'object',
  required: ['bytes'],
  additionalProperties: false,
  properties: { bytes: { type: 'integer', minimum: 1 }, fail: { type: 'boolean' } },
} as const satisfies JsonSchema;

const FETCHER_FAMILY = defineFamily<{ networkStatus: number }>()({
  family: DeviceFamily.Led,
  title: 'Test fetcher',
  deviceType: DeviceType.LedScreen,
  table: 'test_fetcher',
  worker: MqttService.WorkerLighting,
  queue: null,
  job: null,
  actions: { fetch: Button.Edit },
  eventRoles: [],
  liveFields: ['networkStatus'],
  reports: { state: { type: 'object', required: ['online'], properties: { online: { const: true } } } },
  commands: { fetch: { description: 'Fetch a file.', params: FETCH_PARAMS, receipts: true } },
  heartbeatSeconds: 60,
});

type FetchCommand = CommandMessage<'fetch', { bytes: number; fail?: boolean }>;
interface FetcherState {
  fetched: number;
}

/** Step by step, a tenth of a second apart, so a re-send can come while the file comes in. */
const fetcherFamily: SimulatedFamily<FetcherState, FetchCommand> = {
  declaration: FETCHER_FAMILY,
  initial: () => ({ fetched: 0 }),
  apply(state, command, ctx) {
    const { bytes, fail } = command.params;
    return (async () => {
      for (let step = 1; step <= 4; step++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        if (fail && step === 3) throw new Error('checksum mismatch');
        ctx.receipt?.((bytes * step) / 4, bytes);
      }
      state.fetched++;
    })();
  },
  report: () => ({ online: true }),
};

describe('simulator kit: commands that name files to fetch', () => {
  const prefix = `F${randomBytes(4).toString('hex')}-`;
  const codes = [`${prefix}1`, `${prefix}2`];
  let fleet: FleetRunner<FetcherState, FetchCommand>;
  let platform: MqttClient;
  const answers: { code: string; body: Record<string, unknown> }[] = [];

  const send = (code: string, id: string, params: Record<string, unknown>) =>
    platform.publishAsync(
      mqttTopics.of(DeviceFamily.Led, code, MqttChannel.Cmd),
      JSON.stringify({ id, type: 'fetch', params, expiresAt: new Date(Date.now() + 60_000).toISOString() }),
      { qos: 1 },
    );
  const answersOf = (code: string, id: string) => answers.filter((a) => a.code === code && a.body.id === id).map((a) => a.body);

  beforeAll(async () => {
    platform = await mqtt.connectAsync(MQTT_URL, { clientId: `${prefix}platform`, ...testMqttLogin() });
    platform.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      if (parsed?.channel === MqttChannel.Ack && codes.includes(parsed.deviceId))
        answers.push({ code: parsed.deviceId, body: JSON.parse(payload.toString()) as Record<string, unknown> });
    });
    await platform.subscribeAsync(mqttTopics.all(DeviceFamily.Led, MqttChannel.Ack), { qos: 1 });
    fleet = await new FleetRunner(
      fetcherFamily,
      { mqttUrl: MQTT_URL, devicesPerGateway: 1, gatewayPrefix: prefix, ackLatencyMs: { min: 0, max: 10 } },
      codes.map((code) => ({ code })),
    ).run();
  }, 30_000);

  afterAll(async () => {
    await fleet?.stop({ clearRetained: true });
    await platform?.endAsync();
  }, 30_000);

  it('says received, then how far the download got, then acks once it is all in; a re-send meanwhile is not applied again', async () => {
    const id = randomUUID();
    await send(codes[0], id, { bytes: 4000 });
    await waitFor(() => (answersOf(codes[0], id).some((a) => a.receipt) ? true : undefined), 5000);
    // Sent again while its file comes in: the device answers with how far it has got, and does not start over.
    await send(codes[0], id, { bytes: 4000 });
    const all = await waitFor(() => {
      const list = answersOf(codes[0], id);
      return list.some((a) => a.ok === true) ? list : undefined;
    }, 5000);
    expect(all[0]).toEqual({ id, receipt: { stage: 'received' } });
    expect(all.filter((a) => (a.receipt as { stage?: string } | undefined)?.stage === 'downloading').map((a) => a.receipt)).toEqual(
      expect.arrayContaining([
        { stage: 'downloading', received: 1000, total: 4000 },
        { stage: 'downloading', received: 4000, total: 4000 },
      ]),
    );
    expect(all.at(-1)).toEqual({ id, ok: true });
    expect(all.filter((a) => a.ok !== undefined)).toHaveLength(1);
    expect(fleet.stats.commandsApplied).toBe(1);
    expect(fleet.stats.duplicatesIgnored).toBe(1);
    // Once answered, a re-send gets the same ack, not a new download.
    await send(codes[0], id, { bytes: 4000 });
    await waitFor(() => (answersOf(codes[0], id).filter((a) => a.ok === true).length === 2 ? true : undefined), 5000);
    expect(fleet.stats.commandsApplied).toBe(1);
  }, 20_000);

  it('acks not ok with the reason when the download gives up', async () => {
    const id = randomUUID();
    await send(codes[1], id, { bytes: 100, fail: true });
    const last = await waitFor(() => answersOf(codes[1], id).find((a) => a.ok !== undefined), 5000);
    expect(last).toEqual({ id, ok: false, error: 'checksum mismatch' });
  }, 20_000);
});
