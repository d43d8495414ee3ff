import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';
import { MqttIntakeConnection, type AcknowledgeMessage } from './mqtt-intake-connection';

const PROTOCOL = { protocolVersion: 5 } as const;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A broker that ignores the client's Receive Maximum: once subscribed to, it sends QoS 1 messages one write every few
 * milliseconds, whatever is acknowledged, and counts the acknowledgements.
 */
function greedyBroker(messages: number): Promise<{ server: Server; url: string; acks: () => number }> {
  let acks = 0;
  const server = createServer((socket: Socket) => {
    const parser = mqttPacket.parser(PROTOCOL);
    const send = (packet: Packet) => socket.write(mqttPacket.generate(packet, PROTOCOL));
    parser.on('packet', (packet: Packet) => {
      if (packet.cmd === 'connect') send({ cmd: 'connack', sessionPresent: false, reasonCode: 0 });
      if (packet.cmd === 'puback') acks++;
      if (packet.cmd === 'subscribe') {
        send({ cmd: 'suback', messageId: packet.messageId!, granted: [1] });
        void (async () => {
          for (let i = 1; i <= messages && !socket.destroyed; i++) {
            send({
              cmd: 'publish',
              topic: 'city/v1/lamp/L-1/telemetry',
              payload: Buffer.from(String(i)),
              qos: 1,
              messageId: i,
              dup: false,
              retain: false,
            });
            await sleep(3);
          }
        })();
      }
    });
    socket.on('data', (chunk) => parser.parse(chunk));
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`, acks: () => acks })),
  );
}

describe('MqttIntakeConnection', () => {
  it('stops reading at its window even when the broker sends more, and reads on once half is acknowledged', async () => {
    const broker = await greedyBroker(200);
    const received: AcknowledgeMessage[] = [];
    const connection = await MqttIntakeConnection.connect(broker.url, {
      clientIdPrefix: 'test',
      receiveMaximum: 20,
      onMessage: (_topic, _payload, ack) => received.push(ack!),
    });
    try {
      await connection.subscribe([{ topic: 'city/v1/lamp/+/telemetry', qos: 1 }]);
      await sleep(300);
      // The broker sent on; the connection took its window and left the rest unread.
      expect(received).toHaveLength(20);
      expect(connection.unacknowledged).toBe(20);
      for (const ack of received.slice(0, 9)) ack();
      await sleep(100);
      expect(received).toHaveLength(20);
      received[9]();
      await sleep(300);
      // Half acknowledged: it read again (what had waited in the socket) and stopped at its window once more.
      const readOn = received.length;
      expect(readOn).toBeGreaterThanOrEqual(30);
      expect(readOn).toBeLessThan(200);
      await sleep(100);
      expect(received.length).toBe(readOn);
      expect(broker.acks()).toBe(10);
    } finally {
      await connection.close();
      broker.server.close();
    }
  });
});
