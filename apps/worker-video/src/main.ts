import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain } from '@sc/device-runtime';
import { startVideoWorker } from './video-worker';

runWorkerMain(
  'worker-video',
  () => loadRuntimeConfig('video'),
  (config, logger) => startVideoWorker(config, logger),
);
