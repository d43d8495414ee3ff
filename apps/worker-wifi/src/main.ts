import 'reflect-metadata';
import { loadRuntimeConfig, runWorkerMain } from '@sc/device-runtime';
import { startWifiWorker } from './wifi-worker';

runWorkerMain('worker-wifi', () => loadRuntimeConfig('wifi'), startWifiWorker);
