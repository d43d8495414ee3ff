import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain } from '@sc/device-runtime';
import { startLedWorker } from './led-worker';

runWorkerMain('worker-led', () => loadRuntimeConfig('led'), startLedWorker);
