// `npm test`: type checks, lints, builds, then runs every test level (unit, integration against the real
// PostgreSQL, Redis and MQTT broker, and end to end against the built services), and prints one summary line.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkNode, ensureBuilt, ensureDependencies, root, run, say } from './lib.mjs';

checkNode();
ensureDependencies();

say('Checking that PostgreSQL, Redis and the MQTT broker answer…');
ensureBuilt();
run('node', ['dist/apps/gateway/main.js', 'check']);

say('Type checking…');
run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
say('Linting…');
run('npx', ['eslint', '.']);
run('npx', ['prettier', '--check', '.', '--log-level', 'warn']);

const report = join(root, 'test-results', 'jest.json');
rmSync(report, { force: true });
mkdirSync(dirname(report), { recursive: true });
say('Running the tests…');
const status = run('npx', ['jest', '--ci', '--json', `--outputFile=${report}`, ...process.argv.slice(2)], { allowFailure: true });

if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  process.stdout.write(`\ntests: ${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
  if (r.numTotalTests === 0) {
    process.stderr.write('No test ran.\n');
    process.exit(1);
  }
}
process.exit(status);
