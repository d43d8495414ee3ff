// Alarm column presses to the console at COLUMNS simulated columns (1,000), each on an MQTT connection of its own,
// pressed at each rate of RATES presses a second over the fleet (1, 10, 50, 100) for SECONDS (20) each. For every press
// it measures, from the column's timestamp (`ts` of its press, the simulator's clock) to a socket.io client of the
// console (the admin, watching the alarm family as every console of the alarm roles does):
//
//   - press → AlarmPressed: the alarm worker's intake, the press stored with its incident and call, the bus, the push;
//   - press → IncidentChanged: the incident as the console's notice shows it (the column, its level and place).
//
// The demo user group covers every column and its agents are offline, so each call waits for an agent (the call router
// looks at every waiting call four times a second) and ends NoReply after its waiting time; every press of the window
// must reach the console and be stored (alarm_press, alarm_incident, alarm_call). Beyond the target it shows how the
// cost grows with the rate and where it stops keeping up.
//
//   npx nest build gateway && npx nest build worker-alarm && npx nest build device-sim
//   npm run bench:alarm-press                     # COLUMNS=200 RATES=1,10 SECONDS=10 for a short run
//
// It creates a database of its own (sc_bench_alarmpress_<hex>), adds the columns with SQL, starts the gateway, the alarm
// worker and the simulator as separate processes, and removes everything it made. Exit 1 when a p99 at a rate up to
// TARGET_RATE (10 presses a second) misses TARGET_MS (1000: "within a second"), 2 when it could not run.
// See docs/benchmarks.md.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  BenchPlatform,
  checkOpenFiles,
  checkPrerequisites,
  cpuBetween,
  cpuSnapshot,
  fmt,
  latencySummary,
  log,
  logAmbientLoad,
  memoryLine,
  withClient,
} from './support/platform.mjs';

const env = process.env;
const settings = {
  columns: Number(env.COLUMNS ?? 1000),
  rates: (env.RATES ?? '1,10,50,100').split(',').map(Number),
  seconds: Number(env.SECONDS ?? 20),
  targetMs: Number(env.TARGET_MS ?? 1000),
  targetRate: Number(env.TARGET_RATE ?? 10),
};

checkPrerequisites('alarm');
checkOpenFiles(settings.columns + 200, 'An alarm column fleet (a connection per column)');

const platform = new BenchPlatform('alarmpress', { family: 'alarm' });

const summary = (label, samples) => latencySummary(label, samples, '    ');

async function main() {
  log(`Alarm presses to the console: ${fmt(settings.columns)} columns, rates ${settings.rates.join(', ')} presses/s, ${settings.seconds} s each`);
  await logAmbientLoad();
  await platform.createDatabase();
  await platform.addDevices(settings.columns);
  const gateway = await platform.startGateway();
  const worker = await platform.startWorker();

  let window = null;
  const pressed = [];
  const incidents = new Map();
  const sockets = [
    await platform.watchFeed('AlarmPressed', (frame, receivedAt) => window && pressed.push({ window, ts: Date.parse(frame.ts), receivedAt })),
    await platform.watchFeed('IncidentChanged', (frame, receivedAt) => {
      // The first push of each incident: what the console's notice shows.
      if (window && !incidents.has(frame.incident.id))
        incidents.set(frame.incident.id, { window, ts: Date.parse(frame.incident.pressedAt), receivedAt });
    }),
  ];
  const fleet = await platform.startFleet(settings.columns, ['--activity-rate', '0', '--ack-latency', '5-20'], { control: true });
  const online = await platform.waitOnline(settings.columns);
  log(`  gateway ${gateway.pid}, alarm worker ${worker.pid}, simulator ${fleet.pid}; columns online ${fmt(online)} of ${fmt(settings.columns)}`);

  const pids = { gateway: gateway.pid, 'alarm worker': worker.pid, simulator: fleet.pid };
  let missed = false;
  for (const rate of settings.rates) {
    const before = cpuSnapshot(pids);
    const stored = await withClient(platform.databaseUrl, async (c) => (await c.query(`SELECT count(*)::int AS n FROM alarm_press`)).rows[0].n);
    window = rate;
    await platform.fleetCommand(`activity ${rate}`);
    await sleep(settings.seconds * 1000);
    await platform.fleetCommand('activity 0');
    // The last presses of the window reach the console within a moment.
    await sleep(3000);
    window = null;
    const after = cpuSnapshot(pids);
    const counts = await withClient(platform.databaseUrl, async (c) => {
      const { rows } = await c.query(
        `SELECT (SELECT count(*)::int FROM alarm_press) AS presses, (SELECT count(*)::int FROM alarm_incident) AS incidents,
                (SELECT count(*)::int FROM alarm_call WHERE state = 'ended') AS ended, (SELECT count(*)::int FROM alarm_call) AS calls`,
      );
      return rows[0];
    });
    const ofRate = pressed.filter((p) => p.window === rate);
    const firstPush = [...incidents.values()].filter((p) => p.window === rate);
    log(
      `  ${rate} presses/s: ${fmt(counts.presses - stored)} pressed and stored (${fmt((counts.presses - stored) / settings.seconds, 1)}/s); ` +
        `${fmt(ofRate.length)} AlarmPressed and ${fmt(firstPush.length)} incidents pushed; all calls ${fmt(counts.calls)}, ended ${fmt(counts.ended)}`,
    );
    const pressP99 = summary(
      'press → AlarmPressed',
      ofRate.map((p) => p.receivedAt - p.ts),
    );
    const incidentP99 = summary(
      'press → IncidentChanged',
      firstPush.map((p) => p.receivedAt - p.ts),
    );
    const cpu = cpuBetween(before, after);
    log(
      `    CPU (% of one core): ${[...Object.keys(pids), 'postgres', 'mosquitto'].map((k) => `${k} ${cpu[k].toFixed(0)} %`).join(', ')}; machine busy ${cpu.machineBusy.toFixed(0)} %`,
    );
    if (ofRate.length < counts.presses - stored)
      log(`    NOT ALL PUSHED: ${fmt(counts.presses - stored - ofRate.length)} presses stored but not seen by the console`);
    if (
      rate <= settings.targetRate &&
      !(pressP99 < settings.targetMs && incidentP99 < settings.targetMs && ofRate.length === counts.presses - stored)
    )
      missed = true;
  }
  for (const socket of sockets) socket.close();
  log(`  ${memoryLine(platform.memory())}`);
  log(
    missed
      ? `MISSED: a p99 up to ${settings.targetRate} presses/s is not under ${settings.targetMs} ms`
      : `p99 under ${settings.targetMs} ms up to ${settings.targetRate} presses/s`,
  );
  return missed;
}

main()
  .then(async (missed) => {
    await platform.cleanup();
    process.exit(missed ? 1 : 0);
  })
  .catch(async (err) => {
    platform.reportFailure(err);
    await platform.cleanup();
    process.exit(2);
  });
