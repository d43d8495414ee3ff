import { USAGE, parseCliArgs, type CliSettings } from './cli-args';
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
  // With the registry as source, its strip lights are simulated too, on gateways of their own.
  const lampSource = settings.fleet.lamps;
  const strips =
    'databaseUrl' in lampSource
      ? await startStripFleet({
          mqttUrl: settings.fleet.mqttUrl,
          deviceMqttUrl: settings.fleet.deviceMqttUrl,
          strips: { databaseUrl: lampSource.databaseUrl },
          ackLatencyMs: settings.fleet.ackLatencyMs,
          failureRate: settings.fleet.failureRate,
          telemetryIntervalMs: settings.fleet.telemetryIntervalMs,
          logger,
        })
      : null;
  const summary = setInterval(() => {
    const lamps = fleet.codes.length;
    const online = fleet.codes.reduce((n, code) => n + (fleet.lamp(code)?.online ? 1 : 0), 0);
    logger.info({ lamps, online, strips: strips?.codes.length ?? 0, ...fleet.stats }, 'device-sim summary');
  }, settings.summaryIntervalMs);

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    clearInterval(summary);
    logger.info({ signal }, 'device-sim stopping');
    // A clean disconnect: the Wills do not fire and the retained states stay as the lamps last reported them.
    const options = { clearRetained: settings.clearRetainedOnStop };
    Promise.all([fleet.stop(options), strips?.stop(options)]).then(
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
