import { randomBytes } from 'node:crypto';
import mqtt from 'mqtt';
import { MqttIntakeConnection, type AcknowledgeMessage } from './mqtt-intake-connection';
import { testMqttLogin } from '@sc/testing';

const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('MqttIntakeConnection (real broker)', () => {
  const topic = `test/intake/${randomBytes(4).toString('hex')}`;

  it('holds back what it has not acknowledged: it stops reading at its window, and reads on as messages are acknowledged', async () => {
    const received: AcknowledgeMessage[] = [];
    const connection = await MqttIntakeConnection.connect(MQTT_URL, {
      clientIdPrefix: 'test-window',
      login: testMqttLogin(),
      receiveMaximum: 20,
      onMessage: (_topic, _payload, ack) => received.push(ack!),
    });
    const publisher = await mqtt.connectAsync(MQTT_URL, { reconnectPeriod: 0, ...testMqttLogin() });
    try {
      await connection.subscribe([{ topic: `$share/${topic.replace(/\W/g, '')}/${topic}`, qos: 1 }]);
      // Fewer than a broker queues for one client (Mosquitto: 1,000), each big enough that one socket read holds few.
      const TOTAL = 500;
      const body = 'x'.repeat(1000);
      await Promise.all(Array.from({ length: TOTAL }, (_, i) => publisher.publishAsync(topic, `${i} ${body}`, { qos: 1 })));
      await sleep(500);
      const held = received.length;
      // Whatever the broker sent beyond the window (one socket read at most) is all it holds; the rest waits in the broker.
      expect(held).toBeGreaterThanOrEqual(20);
      expect(held).toBeLessThan(200);
      await sleep(300);
      expect(received.length).toBe(held);
      expect(connection.unacknowledged).toBe(held);

      // Acknowledging lets the rest in, a window at a time, until every message came.
      for (let acked = 0; received.length < TOTAL || acked < received.length;) {
        while (acked < received.length) received[acked++]();
        await sleep(20);
      }
      expect(received).toHaveLength(TOTAL);
      expect(connection.unacknowledged).toBe(0);
    } finally {
      await publisher.endAsync();
      await connection.close();
    }
  }, 30_000);
});
