import { DeviceFamily, DispatchStatus, MqttChannel, mqttTopics } from '@sc/contracts';
import { waitFor } from '@sc/testing';
import { connectMqtt, WorkerHarness } from './worker-harness';

const LAMPS = 10_000;

describe('lighting worker: fan-out', () => {
  const h = new WorkerHarness();

  beforeAll(() => h.setUp('wl_fanout'));
  afterAll(() => h.tearDown());

  // How fast is measured by bench/lighting-fanout.bench.mjs (docs/benchmarks.md); this test checks that nothing is lost.
  it(`publishes one command to ${LAMPS} lamps and ends with every row delivered`, async () => {
    const ids = await h.addLamps(LAMPS, 'f');
    const worker = await h.startWorker({
      ackTimeoutMs: 3000,
    });
    // One client plays every lamp: it takes the commands at QoS 0 (a broker queues at most 1,000 QoS 1 messages per
    // client) and acks each at QoS 1, as the contract says.
    const lamps = await connectMqtt();
    const seen = new Set<string>();
    lamps.on('message', (topic, payload) => {
      const parsed = mqttTopics.parse(topic);
      if (!parsed || !ids.has(parsed.deviceId)) return;
      const { id } = JSON.parse(payload.toString()) as { id: string };
      seen.add(id);
      lamps.publish(mqttTopics.of(parsed.family, parsed.deviceId, MqttChannel.Ack), JSON.stringify({ id, ok: true }), {
        qos: 1,
      });
    });
    await lamps.subscribeAsync(mqttTopics.all(DeviceFamily.Lamp, MqttChannel.Cmd), { qos: 0 });

    const started = Date.now();
    const dispatchId = await h.dispatch([...ids.values()], 'on');
    const done = await waitFor(
      () => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status !== DispatchStatus.ToBeSent),
      15_000,
      20,
    );
    const ms = Date.now() - started;
    await lamps.endAsync();
    const counters = worker.snapshot();
    process.stderr.write(
      `fan-out: ${LAMPS} lamps terminal in ${ms} ms (${Math.round((LAMPS * 1000) / ms)} commands/s); published ${counters.commandsPublished}, ` +
        `re-sent ${counters.commandsResent}, acks ${counters.acks}, distinct commands seen ${seen.size}\n`,
    );
    expect(done.status).toBe(DispatchStatus.AllSuccessful);
    expect(done.counts.delivered).toBe(LAMPS);
  });
});
