export * from './device-worker';
export * from './runtime-config';
export * from './run-worker-main';
export * from './alarms/alarm-store';
export * from './alarms/family-alarms';
export * from './family/family-handler';
export * from './family/row-store';
export * from './family/device-clock';
export * from './family/report-parser';
export * from './ledger/command-ledger';
export * from './infra/counters';
export * from './infra/database';
export * from './infra/periodic';
export * from './infra/logger';
export * from './infra/stop-on-signal';
export * from './intake/known-devices';
export * from './intake/device-code-changes';
export * from './voice/device-sessions';

import { DeviceWorker, type DeviceWorkerOptions } from './device-worker';

/** Starts a device worker serving the given families (DeviceWorker). */
export function startDeviceWorker(options: DeviceWorkerOptions): Promise<DeviceWorker> {
  return DeviceWorker.start(options);
}
