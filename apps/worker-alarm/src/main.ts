import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain } from '@sc/device-runtime';
import { startAlarmWorker } from './alarm-worker';

runWorkerMain('worker-alarm', () => loadRuntimeConfig('alarm'), startAlarmWorker);
