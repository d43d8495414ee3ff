import { MqttService } from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { BROADCAST_FAMILIES, BROADCAST_OBSERVERS } from '../../worker-broadcast/src/broadcast-worker';
import { startTestWorker } from './device-worker';
import type { TestGateway } from './harness';

export { MQTT_URL } from './device-worker';

/** The broadcast worker in this process, on the test gateway's database and Redis, with quick ledger timings. */
export function startTestBroadcastWorker(gw: TestGateway, label: string, timings: { ackTimeoutMs?: number } = {}): Promise<DeviceWorker> {
  const spec = { name: 'broadcast', service: MqttService.WorkerBroadcast, families: BROADCAST_FAMILIES, observers: BROADCAST_OBSERVERS() };
  return startTestWorker(gw, spec, label, timings);
}
