import { createInterface } from 'node:readline';
import { USAGE, parseCliArgs, parseControlLine, type CliSettings } from './cli-args';
import { startBroadcastFleet, type BroadcastFleet } from './families/broadcast.sim';
import { startFleet, type Fleet } from './families/lamp.sim';
import { startSignageFleet, type SignageFleet } from './families/signage.sim';
import { startLedFleet, type LedFleet } from './families/led.sim';
import { startRadarFleet, type RadarFleet } from './families/radar.sim';
import { startStripFleet } from './families/strip.sim';
import { startWifiFleet, type WifiFleet } from './families/wifi.sim';
import { startAlarmFleet, type AlarmFleet } from './families/alarm.sim';
import { startCameraFleet, type CameraFleet } from './families/camera.sim';
import { deviceSecretKey } from '@sc/database';
import { createLogger } from './logger';

/** Clients joining or leaving the demo access points, per second over the city. */
const WIFI_CLIENT_CHANGES_PER_SECOND = 8;
/** Presses of the demo alarm columns, over the city: about one every two minutes. */
const ALARM_PRESSES_PER_SECOND = 1 / 120;

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
  const source = settings.fleet.lamps;
  const { mqttUrl, deviceMqttUrl, ackLatencyMs, failureRate, offlineFraction } = settings.fleet;
  const common = { mqttUrl, deviceMqttUrl, ackLatencyMs, failureRate, logger };
  const fromDb = 'databaseUrl' in source ? { databaseUrl: source.databaseUrl } : null;
  // `--from-db --family camera`: the registry's cameras alone (a benchmark of the live views).
  const registry = settings.family === 'camera' ? null : fromDb;
  // A generated fleet is of one family; with the registry as source, its lamps, its strip lights on gateways of their
  // own, its broadcast terminals, each on its own connection, now and then busy with a programme or a call, and its
  // floor screens, each on its own connection, moving on to another ad now and then.
  const lamps: Fleet | null = registry || settings.family === 'lamp' ? await startFleet({ ...settings.fleet, logger }) : null;
  const strips = registry && (await startStripFleet({ ...common, strips: registry, telemetryIntervalMs: settings.fleet.telemetryIntervalMs }));
  const terminals: BroadcastFleet | null = registry
    ? await startBroadcastFleet({
        ...common,
        terminals: registry,
        offlineFraction,
        activity: 0.01,
        downloadConcurrency: settings.downloadConcurrency,
      })
    : settings.family === 'broadcast'
      ? await startBroadcastFleet({
          ...common,
          terminals: source,
          offlineFraction,
          clock: settings.fleet.clock,
          activityPerSecond: settings.activityPerSecond,
          downloadConcurrency: settings.downloadConcurrency,
        })
      : null;
  // The registry's floor screens, moving on to another ad now and then; or generated ones, with no ad of their own
  // until a plan comes (a benchmark's), on the clock given.
  const players: SignageFleet | null = registry
    ? await startSignageFleet({ ...common, players: registry, offlineFraction, activity: 0.005 })
    : settings.family === 'signage'
      ? await startSignageFleet({
          ...common,
          players: source,
          offlineFraction,
          clock: settings.fleet.clock,
          downloadConcurrency: settings.downloadConcurrency,
        })
      : null;
  // The registry's LED screens, or generated ones on the clock given (their tasks' periods run by it), each on its own
  // connection.
  const screens: LedFleet | null =
    registry || settings.family === 'led'
      ? await startLedFleet({
          ...common,
          screens: registry ?? source,
          offlineFraction,
          downloadConcurrency: settings.downloadConcurrency,
          ...(registry ? {} : { clock: settings.fleet.clock }),
        })
      : null;
  // The registry's radars detect passers-by along the demo streets, by the hour of the installation's day.
  const radars: RadarFleet | null = registry
    ? await startRadarFleet({
        ...common,
        radars: registry,
        offlineFraction,
        timeZone: process.env.SCHEDULE_DEFAULT_TIME_ZONE || 'Asia/Shanghai',
        busyness: 1,
      })
    : settings.family === 'radar'
      ? await startRadarFleet({ ...common, radars: source, offlineFraction, perMinute: settings.radarRate || undefined, busyness: 1 })
      : null;
  // The registry's Wi-Fi access controllers and access points, each on its own connection; clients join and leave the
  // access points about four times a second over the city (a few thousand online at a time).
  const wifi: WifiFleet | null = registry
    ? await startWifiFleet({ ...common, acs: registry, aps: registry, offlineFraction, activityPerSecond: WIFI_CLIENT_CHANGES_PER_SECOND })
    : null;
  // The registry's alarm columns, each on its own connection; someone presses one now and then. Generated ones are
  // pressed at --activity-rate over the fleet (a benchmark's sweep).
  const alarms: AlarmFleet | null = registry
    ? await startAlarmFleet({ ...common, columns: registry, offlineFraction, activityPerSecond: ALARM_PRESSES_PER_SECOND })
    : settings.family === 'alarm'
      ? await startAlarmFleet({ ...common, columns: source, offlineFraction, activityPerSecond: settings.activityPerSecond })
      : null;
  // The registry's cameras whose streams are this simulator's (the demo's): a live picture each, drawn when watched.
  const cameras: CameraFleet | null = fromDb
    ? await startCameraFleet({
        databaseUrl: fromDb.databaseUrl,
        port: Number(process.env.VIDEO_SIM_RTSP_PORT || 8554),
        secretKey: deviceSecretKey().key,
        offlineFraction,
        logger,
      })
    : null;
  const summary = setInterval(() => {
    const online = (lamps?.codes ?? []).reduce((n, code) => n + (lamps!.lamp(code)?.online ? 1 : 0), 0);
    const terminalsOnline = (terminals?.codes ?? []).reduce((n, code) => n + (terminals!.terminal(code)?.online ? 1 : 0), 0);
    logger.info(
      {
        lamps: lamps?.codes.length ?? 0,
        online,
        strips: strips?.codes.length ?? 0,
        terminals: terminals?.codes.length ?? 0,
        terminalsOnline,
        floorScreens: players ? players.codes.length : 0,
        screens: screens?.codes.length ?? 0,
        radars: radars?.codes.length ?? 0,
        accessPoints: wifi?.aps.codes.length ?? 0,
        alarmColumns: alarms?.codes.length ?? 0,
        cameras: cameras?.codes.length ?? 0,
        cameraStreams: cameras?.stats().sources ?? 0,
        ...(lamps ?? terminals ?? screens ?? players ?? radars ?? alarms)?.stats,
      },
      'device-sim summary',
    );
  }, settings.summaryIntervalMs);

  // A benchmark steers the devices' own activity through standard input (a rate sweep), and reads the counters back;
  // a test reads and moves the devices' clock (their schedules run by it) in a simulator it started as a process.
  if (settings.controlStdin) {
    const fleet = (terminals ?? lamps ?? screens ?? players ?? radars ?? alarms)!;
    if (!fleet) throw new Error('--control-stdin needs devices on MQTT (not --family camera)');
    const refused = (err: Error) => logger.warn({ err: err.message }, 'device-sim command refused');
    createInterface({ input: process.stdin }).on('line', (line) => {
      try {
        const command = parseControlLine(line);
        if (!command) return;
        if (command.kind === 'activity') fleet.setActivity(command.perSecond);
        if (command.kind === 'activity' || command.kind === 'stats') {
          logger.info({ ...(command.kind === 'activity' ? { perSecond: command.perSecond } : {}), ...fleet.stats }, 'device-sim activity');
          return;
        }
        // Once moved, every device has taken what its schedule says then and reported it.
        const moved = command.at ? fleet.setClock(command.at, command.speed) : Promise.resolve();
        moved.then(() => logger.info({ now: fleet.now().toISOString() }, 'device-sim clock'), refused);
      } catch (err) {
        refused(err as Error);
      }
    });
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    clearInterval(summary);
    logger.info({ signal }, 'device-sim stopping');
    // A clean disconnect: the Wills do not fire and the retained states stay as the devices last reported them.
    const options = { clearRetained: settings.clearRetainedOnStop };
    Promise.all([
      lamps?.stop(options),
      strips?.stop(options),
      terminals?.stop(options),
      players?.stop(options),
      screens?.stop(options),
      radars?.stop(options),
      wifi?.stop(options),
      alarms?.stop(options),
      cameras?.stop(),
    ]).then(
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
