import pino from 'pino';
import type { MqttService } from '@sc/contracts';
import { loadRuntimeConfig, startDeviceWorker, type AnyFamilyHandler, type ChangeObserver, type DeviceWorker } from '@sc/device-runtime';
import { serviceMqttLogin } from '@sc/messaging';
import type { TestGateway } from './harness';

export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** What a family's worker is made of, for a test. */
export interface TestWorkerSpec {
  name: string;
  families: readonly AnyFamilyHandler[];
  observers?: readonly ChangeObserver[];
  service: MqttService;
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
    config: {
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
    },
    logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
  });
}
