export * from './clock';
export * from './commands';
export * from './downloads';
export * from './family';
export * from './fleet';
export * from './plan';
