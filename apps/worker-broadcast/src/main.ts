import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain, startDeviceWorker } from '@sc/device-runtime';
import { BROADCAST_FAMILIES, BROADCAST_OBSERVERS } from './broadcast-worker';

runWorkerMain(
  'worker-broadcast',
  () => loadRuntimeConfig('broadcast'),
  (config, logger) => startDeviceWorker({ name: 'broadcast', families: BROADCAST_FAMILIES, observers: BROADCAST_OBSERVERS(), config, logger }),
);
