import { MqttService } from '@sc/contracts';
import type { DeviceWorker } from '@sc/device-runtime';
import { BROADCAST_FAMILIES, BROADCAST_OBSERVERS } from '../../worker-broadcast/src/broadcast-worker';
import type { TestGateway } from './harness';
import { startTestWorker } from './test-worker';

export { MQTT_URL } from './test-worker';

/** The broadcast worker in this process, on the test gateway's database and Redis, with quick ledger timings. */
export function startTestBroadcastWorker(gw: TestGateway, label: string, timings: { ackTimeoutMs?: number } = {}): Promise<DeviceWorker> {
  const spec = { name: 'broadcast', families: BROADCAST_FAMILIES, observers: BROADCAST_OBSERVERS(), service: MqttService.WorkerBroadcast };
  return startTestWorker(gw, spec, label, timings);
}
