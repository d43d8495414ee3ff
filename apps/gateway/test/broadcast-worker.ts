import pino from 'pino';
import { MqttService } from '@sc/contracts';
import { loadRuntimeConfig, startDeviceWorker, type DeviceWorker } from '@sc/device-runtime';
import { serviceMqttLogin } from '@sc/messaging';
import { BROADCAST_FAMILIES, BROADCAST_OBSERVERS } from '../../worker-broadcast/src/broadcast-worker';
import type { TestGateway } from './harness';

export const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';

/** The broadcast worker in this process, on the test gateway's database and Redis, with quick ledger timings. */
export function startTestBroadcastWorker(gw: TestGateway, label: string, timings: { ackTimeoutMs?: number } = {}): Promise<DeviceWorker> {
  return startDeviceWorker({
    name: 'broadcast',
    families: BROADCAST_FAMILIES,
    observers: BROADCAST_OBSERVERS(),
    config: {
      ...loadRuntimeConfig('broadcast', {}),
      databaseUrl: gw.db.url,
      redisUrl: gw.config.redisUrl,
      mqttUrl: MQTT_URL,
      mqttLogin: serviceMqttLogin(MqttService.WorkerBroadcast),
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
