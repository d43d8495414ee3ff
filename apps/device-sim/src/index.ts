export * from './fleet';
export * from './fleet-plan';
export * from './lamp-behaviour';
export * from './strip-fleet';
