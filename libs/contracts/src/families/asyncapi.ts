import { DeviceFamily, MQTT_TOPIC_ROOT, MqttChannel } from '../mqtt';
import {
  ACK_SCHEMA,
  OFFLINE_SCHEMA,
  RECEIPT_SCHEMA,
  commandEnvelopeSchema,
  type FamilyDeclaration,
  type JsonSchema,
  type ReportChannel,
} from './declaration';
import { RADAR_DETECTION_SCHEMA } from './radar.family';

/**
 * docs/asyncapi.yaml, made from the family declarations: every declared family's commands and reports, the
 * acknowledgement and Last Will all families share. A unit test (asyncapi.spec.ts) fails when the committed document
 * and the declarations part; `npm run docs:asyncapi` writes it anew.
 */

const DESCRIPTION = `How field devices and the platform talk over MQTT. This document is generated from the device family
declarations in \`libs/contracts/src/families/\` (\`npm run docs:asyncapi\`): each family declares its reports and
commands once, and the platform validates what devices send against the same schemas.

Topics are \`city/v1/{family}/{deviceId}/{channel}\`. \`family\` names the device family (\`lamp\` for single lamps,
\`strip\` for strip lights, \`lamp-gateway\` for the concentrators lamps hang off, and so on); \`deviceId\` is the unique
code on the device's record (for lamps and strip lights, its clientId: letters, digits, \`_ . -\`, at most 64
characters). Payloads are JSON in UTF-8, at most 8 KiB.

Authentication (docs/security.md): the broker admits no anonymous client. A device logs in with the username
\`{family}/{deviceId}\` and the password the platform issued for it; it may publish only on its own topics
(\`city/v1/{family}/{deviceId}/state|ack|telemetry|event\`, its Last Will included) and read only its own \`cmd\`. A lamp
gateway with a record (\`lamp-gateway/{code}\`) may also report for the lights bound to it and read their commands. Every
account may read radar events. The platform's services log in as \`svc/{service}\`, each with the rights its families need. Messages a
client may not publish are dropped by the broker: they never reach the platform.

Delivery rules:
- Commands are QoS 1, so a device may receive one twice. A device applies a command id at most once; a repeated id is
  acknowledged again with the first result.
- A device ignores a command that arrives after its \`expiresAt\` and acknowledges it with \`ok: false\`, \`error: "expired"\`.
- \`state\` is retained. On connecting, a device publishes its full state with \`"online": true\`; its MQTT Last Will
  publishes \`{ "online": false }\`, retained, on the same topic.
- A connected device reports at least once per its family's heartbeat (the \`state\` channel lists them), publishing its
  state again when it has had nothing else to send. One the platform has not heard from for three heartbeats is shown
  offline, as if its Last Will had come, until it reports again.
- The platform accepts only well-formed messages (exactly the declared schema; keys it does not name are dropped) from
  devices it knows (a record with that code). Anything else is counted, logged once per device and dropped; other
  traffic is not affected.
- The platform reads device traffic through shared subscriptions (\`$share/<group>/city/v1/<family>/+/<channel>\`), so
  several replicas of a worker split it, and acknowledges a QoS 1 message only once it is stored.
- Messages of one device reach one worker connection in the order the broker sent them; across the members of a
  shared subscription a broker may hand one device's messages to different members.`;

const REPORT_CHANNELS: Record<ReportChannel, string> = {
  state: 'Device to platform. QoS 1, retained. The full reported state, or the Last Will’s `{ "online": false }`.',
  telemetry: 'Device to platform. QoS 0 or 1. Readings with the time they were taken.',
  event:
    'Device to platform. QoS 1. A fault raised or cleared: an active code raises an alarm for the device, the same code with `active: false` clears it.',
};

const lowerFirst = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const pascal = (family: string) => family.split('-').map(upperFirst).join('');

/** A message component of a schema: named after the schema's title, so a schema two families share is one message. */
function message(schema: JsonSchema): { key: string; body: Record<string, unknown> } {
  const { title, description, ...payload } = schema as { title?: string; description?: string } & Record<string, unknown>;
  if (!title) throw new Error('A report schema needs a title (it names its message in docs/asyncapi.yaml)');
  return { key: lowerFirst(title), body: { name: title, ...(description ? { summary: description } : {}), payload } };
}

function ref(key: string) {
  return { $ref: `#/components/messages/${key}` };
}

const PARAMETERS = {
  family: { $ref: '#/components/parameters/family' },
  deviceId: { $ref: '#/components/parameters/deviceId' },
};

/** The AsyncAPI 3 document of the device contract of these families. */
export function buildAsyncApi(families: readonly FamilyDeclaration[]): Record<string, unknown> {
  const messages: Record<string, Record<string, unknown>> = {};
  const byChannel: Record<string, Record<string, { $ref: string }>> = { command: {}, ack: {}, state: {}, telemetry: {}, event: {} };
  const add = (channel: string, key: string, body: Record<string, unknown>) => {
    messages[key] ??= body;
    byChannel[channel][key] = ref(key);
  };

  const senders = new Map<string, string[]>();
  for (const family of families) {
    const commandTypes = Object.entries(family.commands);
    if (commandTypes.length > 0) {
      add('command', `${lowerFirst(pascal(family.family))}Command`, {
        name: `${pascal(family.family)}Command`,
        summary: `A command to a ${family.title.toLowerCase()} (family \`${family.family}\`).`,
        payload: {
          oneOf: commandTypes.map(([type, command]) => ({
            description: `\`${type}\`: ${command.description}`,
            ...commandEnvelopeSchema(type, command.params),
          })),
        },
      });
    }
    for (const [channel, schema] of Object.entries(family.reports) as [ReportChannel, JsonSchema][]) {
      const { key, body } = message(schema);
      add(channel, key, body);
      senders.set(key, [...(senders.get(key) ?? []), family.family]);
      if (channel === 'state') add('state', 'offline', message(OFFLINE_SCHEMA).body);
    }
  }
  // Each report names the families that send it (a schema several families share is one message).
  for (const [key, names] of senders) {
    const summary = messages[key].summary ? `${String(messages[key].summary)} ` : '';
    messages[key] = { ...messages[key], summary: `${summary}Sent by: ${names.map((n) => `\`${n}\``).join(', ')}.` };
  }
  add('ack', 'ack', message(ACK_SCHEMA).body);
  add('ack', 'receipt', message(RECEIPT_SCHEMA).body);

  const channel = (name: string, description: string) => ({
    address: `${MQTT_TOPIC_ROOT}/{family}/{deviceId}/${name}`,
    description,
    parameters: PARAMETERS,
    messages: byChannel[name],
  });
  // Lamps on a sensing strategy listen to radars themselves: the radar family's declared detection.
  const radarEvent = message(RADAR_DETECTION_SCHEMA);
  messages[radarEvent.key] ??= radarEvent.body;

  return {
    asyncapi: '3.0.0',
    info: { title: 'Smart City device contract', version: '1.0.0', description: DESCRIPTION },
    defaultContentType: 'application/json',
    servers: {
      broker: {
        host: '127.0.0.1:1883',
        protocol: 'mqtt',
        description: 'The installation’s MQTT broker (MQTT 5; shared subscriptions required). Port 8883 with TLS for devices outside the site.',
        security: [{ $ref: '#/components/securitySchemes/account' }],
      },
    },
    channels: {
      command: channel(MqttChannel.Cmd, 'Platform to device. QoS 1, not retained.'),
      ack: channel(MqttChannel.Ack, 'Device to platform. QoS 1. The device’s answer to one command id.'),
      state: channel(
        MqttChannel.State,
        `${REPORT_CHANNELS.state} Heartbeats: ${families.map((f) => `\`${f.family}\` ${f.heartbeatSeconds} s`).join(', ')}.`,
      ),
      telemetry: channel(MqttChannel.Telemetry, REPORT_CHANNELS.telemetry),
      event: channel(MqttChannel.Event, REPORT_CHANNELS.event),
      radarEvent: {
        address: `${MQTT_TOPIC_ROOT}/radar/{radarCode}/event`,
        description:
          'Radar to lamps. QoS 0 or 1, not retained. Lamps running a sensing strategy (mode 3) that names the radar subscribe to it ' +
          'themselves and rise to the strategy’s brightness for its hold time, with or without the platform.',
        parameters: { radarCode: { description: 'The radar’s device code.' } },
        messages: { radarEvent: ref(radarEvent.key) },
      },
    },
    operations: {
      sendCommand: {
        action: 'send',
        channel: { $ref: '#/channels/command' },
        summary: 'A device worker sends a dispatch’s commands, and sends a command again (same id) until it is acknowledged or expires.',
      },
      receiveAck: {
        action: 'receive',
        channel: { $ref: '#/channels/ack' },
        summary: 'An acknowledgement makes the dispatch row delivered (ok) or failed.',
      },
      receiveState: {
        action: 'receive',
        channel: { $ref: '#/channels/state' },
        summary: 'Stored as the device’s reported state; `online false` marks the device offline.',
      },
      receiveTelemetry: { action: 'receive', channel: { $ref: '#/channels/telemetry' } },
      receiveEvent: { action: 'receive', channel: { $ref: '#/channels/event' } },
      lampsReceiveRadarEvent: {
        action: 'receive',
        channel: { $ref: '#/channels/radarEvent' },
        summary: 'A lamp on a sensing schedule that names the radar raises its light (the device simulator does this).',
      },
    },
    components: {
      parameters: {
        family: {
          enum: Object.values(DeviceFamily),
          description: 'The device family (libs/contracts DeviceFamily; declared families are described here).',
        },
        deviceId: { description: 'The device’s unique code (for lamps, its clientId).' },
      },
      messages,
      securitySchemes: {
        account: {
          type: 'userPassword',
          description: 'Username `{family}/{deviceId}` (devices) or `svc/{service}` (platform services), and its password.',
        },
      },
    },
  };
}
