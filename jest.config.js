// One Jest config, three levels: unit (*.spec.ts beside the code, seams replaced),
// integration (*.int-spec.ts, real PostgreSQL and Redis), end to end (tests/*.e2e-spec.ts, the built services).
const fs = require('node:fs');
const os = require('node:os');

const swc = JSON.parse(fs.readFileSync(`${__dirname}/.swcrc`, 'utf8'));
const shared = {
  transform: {
    '^.+\\.tsx$': [
      '@swc/jest',
      {
        ...swc,
        swcrc: false,
        jsc: { ...swc.jsc, parser: { ...swc.jsc.parser, tsx: true }, transform: { ...swc.jsc.transform, react: { runtime: 'automatic' } } },
      },
    ],
    '^.+\\.(t|j)s$': ['@swc/jest', { ...swc, swcrc: false }],
  },
  moduleNameMapper: {
    '^@sc/(contracts|database|device-runtime|i18n|messaging|schedule|testing)$': '<rootDir>/libs/$1/src',
    '^@sc/(contracts|database|device-runtime|i18n|messaging|schedule|testing)/(.*)$': '<rootDir>/libs/$1/src/$2',
    // The web console's own alias (apps/web/vite.config.ts).
    '^@/(.*)$': '<rootDir>/apps/web/src/$1',
  },
  testEnvironment: 'node',
  setupFiles: ['<rootDir>/libs/testing/src/jest-setup.ts'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  // A few dependencies ship only ES modules; Node 20 loads them natively, Jest needs them compiled.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition)/)'],
};

// Tests that meet the MQTT broker log in like everyone else (libs/testing/src/mqtt-access.ts).
const MQTT_SETUP = '<rootDir>/libs/testing/src/jest-mqtt-setup.ts';

// Faults (tests/faults/*.fault-spec.ts) disturb services the whole machine shares, such as restarting Redis, so they
// never run beside other tests: only when asked for by name (`--selectProjects faults`, as `npm test` does last).
const faultsAskedFor = process.argv.some((arg) => /\bfaults\b/.test(arg));

module.exports = {
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/apps/**/*.int-spec.ts', '<rootDir>/libs/**/*.int-spec.ts'],
      setupFilesAfterEnv: [MQTT_SETUP],
      slowTestThreshold: 20,
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/tests/**/*.e2e-spec.ts'],
      slowTestThreshold: 60,
      // A minute per test unless the test says otherwise (tests/support/jest-e2e-setup.ts).
      setupFilesAfterEnv: [MQTT_SETUP, '<rootDir>/tests/support/jest-e2e-setup.ts'],
    },
    ...(faultsAskedFor
      ? [
          {
            ...shared,
            displayName: 'faults',
            testMatch: ['<rootDir>/tests/faults/**/*.fault-spec.ts'],
            slowTestThreshold: 120,
            setupFilesAfterEnv: [MQTT_SETUP],
          },
        ]
      : []),
  ],
  // Every test file has its own database, Redis prefix and ports, so files run side by side: at least two at a time
  // (Jest's default on a two-core machine would be one), more where there are more cores.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  testTimeout: 30000,
};
