// `npm start`: installs what is missing, builds, migrates, loads the demo data into an empty database,
// and serves the console and API on http://localhost:8080 (uploads on 8888).
import { GATEWAY_NODE_FLAGS, checkNode, ensureBuilt, ensureDependencies, fail, root, run, say, start } from './lib.mjs';

checkNode();
ensureDependencies();
ensureBuilt();

const gateway = 'dist/apps/gateway/main.js';
// The demo accounts have a published password: the demo listens on this machine only unless HOST says otherwise.
process.env.HOST ??= '127.0.0.1';
// `check` and `migrate` print a plain message naming any service that does not answer, and exit 2.
run('node', [gateway, 'migrate']);
run('node', [gateway, 'seed-demo']);

say('Starting the gateway…');
const children = [start('node', [...GATEWAY_NODE_FLAGS, gateway, 'serve'])];

let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill(signal);
};
process.on('SIGINT', () => stop('SIGTERM'));
process.on('SIGTERM', () => stop('SIGTERM'));
for (const child of children) {
  child.on('exit', (code, signal) => {
    if (!stopping) {
      stop('SIGTERM');
      fail(`A service of the console stopped (${code ?? signal}); see the messages above. Working directory: ${root}`, code || 1);
    }
  });
}
