export * from './naming';
export * from './job-producer';
export * from './job-handlers';
export * from './redis-bus';
export * from './mqtt-connection';
export * from './job-worker';
export * from './mqtt-intake-connection';
