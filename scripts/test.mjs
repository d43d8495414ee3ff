// `npm test`: type checks, lints, builds, then runs every test level (unit, integration against the real
// PostgreSQL, Redis and MQTT broker, and end to end against the built services), and prints one summary line.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { projectBrokerUnlessGiven } from './broker.mjs';
import { checkNode, ensureBuilt, ensureDependencies, fail, root, run, runTogether, say } from './lib.mjs';

checkNode();
ensureDependencies();

// The tests' broker: Mosquitto with the shipped configuration on a free loopback port, unless MQTT_URL names one (or
// Mosquitto is not installed: then the broker on 127.0.0.1:1883, e.g. docker compose's, which uses the same file).
const broker = await projectBrokerUnlessGiven().catch((error) => fail(error.message));
if (broker) {
  say(`MQTT broker with the shipped configuration (deploy/mosquitto) on ${broker.url}`);
  const stopBroker = () => void broker.stop().finally(() => process.exit(130));
  process.on('SIGINT', stopBroker);
  process.on('SIGTERM', stopBroker);
}

say('Checking that PostgreSQL, Redis and the MQTT broker answer…');
ensureBuilt();
run('node', ['dist/apps/gateway/main.js', 'check']);

say('Type checking and linting…');
await runTogether([
  ['npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['npx', ['eslint', '.']],
  ['npx', ['prettier', '--check', '.', '--log-level', 'warn']],
]);

say('Running the tests…');
// Unit, integration and end to end first; the faults (tests/faults, e.g. restarting Redis) disturb services every test
// shares, so they run alone afterwards, and only when everything else passed and no tests were picked by hand.
const args = process.argv.slice(2);
const picksProjects = args.includes('--selectProjects');
const steps = [{ name: 'jest', projects: picksProjects ? [] : ['unit', 'integration', 'e2e'], args }];
if (args.length === 0) steps.push({ name: 'jest-faults', projects: ['faults'], args: ['--runInBand'] });

const totals = { passed: 0, failed: 0, skipped: 0, total: 0 };
let status = 0;
for (const step of steps) {
  const report = join(root, 'test-results', `${step.name}.json`);
  rmSync(report, { force: true });
  mkdirSync(dirname(report), { recursive: true });
  if (step.projects.includes('faults')) say('Running the fault tests (Redis restarts)…');
  // The user's arguments go first: --selectProjects takes every name after it.
  const select = step.projects.length > 0 ? ['--selectProjects', ...step.projects] : [];
  status = run('npx', ['jest', '--ci', '--json', `--outputFile=${report}`, ...step.args, ...select], { allowFailure: true });
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    totals.total += r.numTotalTests;
  }
  if (status !== 0) break;
}

await broker?.stop();
process.stdout.write(`\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}\n`);
if (totals.total === 0) {
  process.stderr.write('No test ran.\n');
  process.exit(1);
}
process.exit(status);
