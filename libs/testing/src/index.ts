export * from './test-database';
export * from './api-client';
export * from './wait';
export * from './memory';
export * from './spreadsheets';
export * from './attack-workbooks';
export * from './mqtt-access';
export * from './audio';
