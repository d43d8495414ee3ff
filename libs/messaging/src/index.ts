export * from './naming';
export * from './job-producer';
export * from './job-handlers';
export * from './redis-bus';
