import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain } from '@sc/device-runtime';
import { startRadarWorker } from './radar-worker';

runWorkerMain('worker-radar', () => loadRuntimeConfig('radar'), startRadarWorker);
