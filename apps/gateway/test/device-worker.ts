import pino from 'pino';
import { io, type Socket } from 'socket.io-client';
import {
  SOCKET_PATH,
  type BusEventName,
  type ClientToServerEvents,
  type DeviceFamily,
  type MqttService,
  type ServerToClientEvents,
} from '@sc/contracts';
import {
  loadRuntimeConfig,
  startDeviceWorker,
  type AnyFamilyHandler,
  type ChangeObserver,
  type DeviceWorker,
  type RuntimeConfig,
} from '@sc/device-runtime';
import { serviceMqttLogin } from '@sc/messaging';
import type { TestGateway } from './harness';

export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** What a test starts of one device worker: its name, account, families and observers. */
export interface TestWorkerSpec {
  name: string;
  service: MqttService;
  families: readonly AnyFamilyHandler[];
  observers?: ChangeObserver[];
}

/** A device worker's settings for a test: the test gateway's database and Redis, with quick ledger timings. */
export function testWorkerConfig(
  gw: TestGateway,
  spec: Pick<TestWorkerSpec, 'name' | 'service'>,
  label: string,
  timings: { ackTimeoutMs?: number } = {},
): RuntimeConfig {
  return {
    ...loadRuntimeConfig(spec.name, {}),
    databaseUrl: gw.db.url,
    redisUrl: gw.config.redisUrl,
    mqttUrl: MQTT_URL,
    mqttLogin: serviceMqttLogin(spec.service),
    redisPrefix: gw.config.redisPrefix,
    intakeGroup: `test-${label}-${gw.config.redisPrefix.replace(/\W/g, '')}`,
    ackTimeoutMs: 1000,
    trackerIntervalMs: 100,
    progressIntervalMs: 50,
    ...timings,
  };
}

/** A device worker in this process, on the test gateway's database and Redis, with quick ledger timings. */
export function startTestWorker(
  gw: TestGateway,
  spec: TestWorkerSpec,
  label: string,
  timings: { ackTimeoutMs?: number } = {},
): Promise<DeviceWorker> {
  return startDeviceWorker({
    name: spec.name,
    families: spec.families,
    observers: spec.observers,
    config: testWorkerConfig(gw, spec, label, timings),
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  });
}

/** A socket signed in with `token`, watching the `event`s (DeviceStateChanged by default) of `family`. */
export async function watchFamily(
  gw: TestGateway,
  token: string,
  family: DeviceFamily,
  event: BusEventName = 'DeviceStateChanged',
): Promise<Socket<ServerToClientEvents, ClientToServerEvents>> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(gw.baseUrl, {
    path: SOCKET_PATH,
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
  // The feed is joined once the gateway answers (a busy machine may take seconds).
  const joined = await socket.timeout(20_000).emitWithAck('watch', [{ event, family }]);
  if (!joined.some((topic) => topic.event === event && topic.family === family)) throw new Error(`the socket may not watch ${event} of ${family}`);
  return socket;
}
