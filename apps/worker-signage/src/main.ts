import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain, startDeviceWorker } from '@sc/device-runtime';
import { SIGNAGE_FAMILIES, SIGNAGE_OBSERVERS } from './signage-worker';

runWorkerMain(
  'worker-signage',
  () => loadRuntimeConfig('signage'),
  (config, logger) => startDeviceWorker({ name: 'signage', families: SIGNAGE_FAMILIES, observers: SIGNAGE_OBSERVERS(), config, logger }),
);
