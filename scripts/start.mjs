// `npm start`: installs what is missing, builds, migrates, loads the demo data into an empty database, serves the
// console and API on http://localhost:8080 (uploads on 8888), and runs the lighting worker with a simulated fleet
// of the demo lamps talking to the MQTT broker: Mosquitto with the shipped configuration (deploy/mosquitto) on
// 127.0.0.1:1884 (MQTT_PORT; devices on 1885, MQTT_DEVICE_PORT), unless MQTT_URL names a broker of your own.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { projectBrokerUnlessGiven } from './broker.mjs';
import { GATEWAY_NODE_FLAGS, checkNode, ensureBuilt, ensureDependencies, fail, root, run, say, start } from './lib.mjs';

checkNode();
ensureDependencies();
ensureBuilt();

const broker = await projectBrokerUnlessGiven({
  port: Number(process.env.MQTT_PORT ?? 1884),
  devicePort: Number(process.env.MQTT_DEVICE_PORT ?? 1885),
}).catch((error) => fail(error.message));
if (broker) say(`MQTT broker (deploy/mosquitto/mosquitto.conf) on ${broker.url}, devices on ${broker.deviceUrl}`);
else if (!process.env.MQTT_URL) {
  // docker compose's broker (no Mosquitto here): the gateway writes its accounts where the container reads them.
  process.env.MQTT_BROKER_ACCESS_DIR ??= join(root, '.mqtt-access');
  process.env.MQTT_CREDENTIAL_SECRET ??= randomBytes(32).toString('base64url');
  process.env.MQTT_DEVICE_URL ??= 'mqtt://127.0.0.1:1884';
}

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
  void broker?.stop();
};
const watch = (child) =>
  child.on('exit', (code, signal) => {
    if (!stopping) {
      stop('SIGTERM');
      fail(`A service of the console stopped (${code ?? signal}); see the messages above. Working directory: ${root}`, code || 1);
    }
  });
watch(children[0]);
process.on('SIGINT', () => stop('SIGTERM'));
process.on('SIGTERM', () => stop('SIGTERM'));

// The workers and the simulated devices log in to the broker with accounts the gateway writes as it starts: they
// start once it answers, so none of them is refused at first.
const host = ['0.0.0.0', '::', ''].includes(process.env.HOST) ? '127.0.0.1' : process.env.HOST;
const health = `http://${host.includes(':') ? `[${host}]` : host}:${process.env.PORT ?? 8080}/api/health`;
const deadline = Date.now() + 180_000;
const answers = () =>
  fetch(health, { signal: globalThis.AbortSignal.timeout(3000) }).then(
    (r) => r.ok,
    () => false,
  );
while (!stopping && !(await answers())) {
  if (Date.now() > deadline) {
    stop('SIGTERM');
    fail(`The gateway did not answer on ${health} within 3 minutes; see the messages above.`);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
if (!stopping) {
  say('Starting the lighting, broadcast, floor-screen, LED, radar, Wi-Fi, alarm column and video workers and the simulated devices…');
  for (const child of [
    start('node', ['dist/apps/worker-lighting/main.js']),
    start('node', ['dist/apps/worker-broadcast/main.js']),
    start('node', ['dist/apps/worker-signage/main.js']),
    start('node', ['dist/apps/worker-led/main.js']),
    start('node', ['dist/apps/worker-radar/main.js']),
    start('node', ['dist/apps/worker-wifi/main.js']),
    start('node', ['dist/apps/worker-alarm/main.js']),
    start('node', ['dist/apps/worker-video/main.js']),
    // The demo lamps, strip lights, broadcast terminals, floor screens, LED screens, Wi-Fi (with clients coming and going) alarm columns (pressed now and then) and cameras (their streams drawn live) of the database, answering in 50 to 400 ms; a few fail now and then and a few are offline.
    start('node', ['dist/apps/device-sim/main.js', '--from-db', '--ack-latency', '50-400', '--failure-rate', '0.02', '--offline', '0.05']),
  ]) {
    children.push(child);
    watch(child);
  }
}
