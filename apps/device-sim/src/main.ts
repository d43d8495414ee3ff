import { USAGE, parseCliArgs, type CliSettings } from './cli-args';
import { startBroadcastFleet } from './families/broadcast.sim';
import { startFleet } from './families/lamp.sim';
import { startStripFleet } from './families/strip.sim';
import { createLogger } from './logger';

async function main(): Promise<void> {
  let settings: CliSettings;
  try {
    settings = parseCliArgs(process.argv.slice(2), process.env);
  } catch (err) {
    const message = (err as Error).message;
    process.stderr.write(`${message}${message === USAGE ? '' : `\n${USAGE}`}\n`);
    process.exit(message === USAGE ? 0 : 2);
  }
  const logger = createLogger();
  const fleet = await startFleet({ ...settings.fleet, logger });
  // With the registry as source, its strip lights are simulated too, on gateways of their own, and its broadcast
  // terminals, each on its own connection, now and then busy with a programme or a call.
  const lampSource = settings.fleet.lamps;
  const { mqttUrl, deviceMqttUrl, ackLatencyMs, failureRate } = settings.fleet;
  const common = { mqttUrl, deviceMqttUrl, ackLatencyMs, failureRate, logger };
  const fromDb = 'databaseUrl' in lampSource ? { databaseUrl: lampSource.databaseUrl } : null;
  const strips = fromDb && (await startStripFleet({ ...common, strips: fromDb, telemetryIntervalMs: settings.fleet.telemetryIntervalMs }));
  const terminals =
    fromDb && (await startBroadcastFleet({ ...common, terminals: fromDb, offlineFraction: settings.fleet.offlineFraction, activity: 0.01 }));
  const summary = setInterval(() => {
    const lamps = fleet.codes.length;
    const online = fleet.codes.reduce((n, code) => n + (fleet.lamp(code)?.online ? 1 : 0), 0);
    logger.info({ lamps, online, strips: strips?.codes.length ?? 0, terminals: terminals?.codes.length ?? 0, ...fleet.stats }, 'device-sim summary');
  }, settings.summaryIntervalMs);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    clearInterval(summary);
    logger.info({ signal }, 'device-sim stopping');
    // A clean disconnect: the Wills do not fire and the retained states stay as the lamps last reported them.
    const options = { clearRetained: settings.clearRetainedOnStop };
    Promise.all([fleet.stop(options), strips?.stop(options), terminals?.stop(options)]).then(
      () => process.exit(0),
      (err: Error) => {
        logger.error({ err: err.message }, 'device-sim stop failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`device-sim could not start: ${err.message}\n`);
  process.exit(1);
});
