import 'reflect-metadata';
import { runWorkerMain } from '@sc/device-runtime';
import { loadWorkerConfig } from './config/worker-config';
import { startLightingWorker } from './lighting-worker';

runWorkerMain('worker-lighting', loadWorkerConfig, startLightingWorker);
