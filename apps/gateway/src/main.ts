import 'reflect-metadata';
import { ensureDatabase, isAuthenticationFailure, runMigrations } from '@sc/database';
import { AccessCache } from './auth/access-cache.service';
import { SessionService } from './auth/session.service';
import { loadConfig, redactUrl, type AppConfig } from './config/app-config';
import { ServiceUnavailableError, UserFacingError, checkServices, unavailableMessage } from './config/preflight';
import { createAdmin } from './demo/create-admin';
import { DEMO_PASSWORD, DEMO_USERS, loadDemoData } from './demo/demo-data';
import { DEMO_STREETS, loadDemoEquipment } from './demo/demo-equipment';
import { DEMO_LAMPS, loadDemoLamps } from './demo/demo-lamps';
import { DEMO_STRIPS, loadDemoStrips } from './demo/demo-strips';
import { loadDemoPoles } from './demo/demo-poles';
import { DEMO_SIGNAGE_COUNT, loadDemoSignage } from './demo/demo-signage';
import { DEMO_LED_COUNT, loadDemoLeds } from './demo/demo-led';
import { DEMO_RADAR_COUNT, loadDemoRadars } from './demo/demo-radars';
import { DEMO_AC_COUNT, DEMO_AP_COUNT, loadDemoWifi } from './demo/demo-wifi';
import { DEMO_CAMERA_COUNT, loadDemoCameras } from './demo/demo-cameras';
import { DEMO_ALARM_COLUMN_COUNT, DEMO_ALARM_GROUP, loadDemoAlarmColumns, loadDemoAlarmGroup } from './demo/demo-alarm-columns';
import { DEMO_TERMINAL_COUNT, loadDemoTerminals } from './demo/demo-terminals';
import { DEMO_STRATEGIES, loadDemoStrategies } from './demo/demo-strategies';
import { DEMO_ENERGY_DAYS, loadDemoAlarmsAndEnergy } from './demo/demo-alarms-energy';
import { createConsoleApp, createUploadApp } from './http-app';
import { Mp3Probe } from './broadcast/mp3-probe';
import { BrokerAccessSync } from './broker-access/broker-access-sync';
import { BrokerHook } from './broker-access/broker-hook';
import { EmqxSessions } from './broker-access/emqx-sessions';
import { derivedMqttPassword, waitForMqttLogin } from '@sc/messaging';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Creates the database if needed and applies pending migrations; an unreachable server becomes a plain message. */
async function migrate(config: AppConfig): Promise<void> {
  try {
    if (await ensureDatabase(config.databaseUrl)) say(`Created database ${redactUrl(config.databaseUrl)}`);
  } catch (err) {
    if (isAuthenticationFailure(err)) {
      throw new UserFacingError(
        `PostgreSQL at ${redactUrl(config.databaseUrl)} refused the credentials: ${(err as Error).message}. Check DATABASE_URL.`,
      );
    }
    throw new ServiceUnavailableError(unavailableMessage('postgres', config.databaseUrl, (err as Error).message));
  }
  const applied = await runMigrations(config.databaseUrl);
  say(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date');
}

async function seedDemo(config: AppConfig): Promise<void> {
  const outcome = await loadDemoData(config.databaseUrl);
  if (outcome === 'skipped-real-data') {
    say('This database already has its own users: demo data was not loaded.');
    return;
  }
  say(outcome === 'loaded' ? 'Demo data loaded.' : 'Demo data is already loaded.');
  if ((await loadDemoLamps(config.databaseUrl)) === 'loaded') {
    say(`Demo lamps loaded: ${DEMO_LAMPS.length} (${DEMO_LAMPS[0].code} to ${DEMO_LAMPS[DEMO_LAMPS.length - 1].code}).`);
  }
  if ((await loadDemoEquipment(config.databaseUrl)) === 'loaded') {
    say(
      `Demo lamp gateways loaded: ${DEMO_STREETS.length} (${DEMO_STREETS.map((s) => s.gatewayId).join(', ')}), two loops each, with lamp groups and positions.`,
    );
  }
  if ((await loadDemoStrips(config.databaseUrl)) === 'loaded')
    say(`Demo strip lights loaded: ${DEMO_STRIPS.length} (STRIP-0001 to STRIP-${String(DEMO_STRIPS.length).padStart(4, '0')}).`);
  if ((await loadDemoStrategies(config.databaseUrl, config.defaultPlace)) === 'loaded')
    say(`Demo lamp strategies loaded: ${DEMO_STRATEGIES.length}; every demo lamp runs "${DEMO_STRATEGIES[0].name}".`);
  if ((await loadDemoAlarmsAndEnergy(config.databaseUrl, config.defaultPlace.timeZone)) === 'loaded')
    say(`Demo lamp energy (the last ${DEMO_ENERGY_DAYS} days) and alarms loaded.`);
  // Last: each demo lamp's pole takes the lamp's place and position.
  if ((await loadDemoPoles(config.databaseUrl)) === 'loaded') say('Demo lamp poles loaded: one per demo lamp (POLE-00001 carries LAMP-00001).');
  // On the poles: the broadcast terminals.
  if ((await loadDemoTerminals(config.databaseUrl)) === 'loaded')
    say(`Demo broadcast terminals loaded: ${DEMO_TERMINAL_COUNT} (BC-0001 to BC-${String(DEMO_TERMINAL_COUNT).padStart(4, '0')}), on demo poles.`);
  if ((await loadDemoSignage(config.databaseUrl)) === 'loaded')
    say(
      `Demo floor screens loaded: ${DEMO_SIGNAGE_COUNT} (FS-0001 to FS-${String(DEMO_SIGNAGE_COUNT).padStart(4, '0')}), in three groups and a few unbound.`,
    );
  // And the LED screens.
  if ((await loadDemoLeds(config.databaseUrl, config.defaultPlace)) === 'loaded')
    say(`Demo LED screens loaded: ${DEMO_LED_COUNT} (LED-0001 to LED-${String(DEMO_LED_COUNT).padStart(4, '0')}), on demo poles.`);
  // And the radars, each group lighting the lamps near its radars.
  if ((await loadDemoRadars(config.databaseUrl)) === 'loaded')
    say(
      `Demo radars loaded: ${DEMO_RADAR_COUNT} (RADAR-0001 to RADAR-${String(DEMO_RADAR_COUNT).padStart(4, '0')}), on demo poles, a group and a strategy per region.`,
    );
  // And the Wi-Fi: a controller per region, its access points on the poles.
  if ((await loadDemoWifi(config.databaseUrl)) === 'loaded')
    say(
      `Demo Wi-Fi loaded: ${DEMO_AC_COUNT} access controllers (AC-0001 onwards) and ${DEMO_AP_COUNT} access points (AP-0001 onwards) on demo poles.`,
    );
  // And the alarm columns.
  if ((await loadDemoAlarmColumns(config.databaseUrl)) === 'loaded')
    say(
      `Demo alarm columns loaded: ${DEMO_ALARM_COLUMN_COUNT} (ALARM-0001 to ALARM-${String(DEMO_ALARM_COLUMN_COUNT).padStart(4, '0')}), on demo poles.`,
    );
  if ((await loadDemoAlarmGroup(config.databaseUrl)) === 'loaded')
    say(
      `Demo alarm user group loaded: "${DEMO_ALARM_GROUP.name}", agents ${DEMO_ALARM_GROUP.agents.map((a) => a.username).join(' and ')} (set yourself Idle with the headset in the header to take the columns' calls).`,
    );
  // And the cameras, whose streams the simulator plays.
  if ((await loadDemoCameras(config.databaseUrl, config.video.secretKey)) === 'loaded')
    say(`Demo cameras loaded: ${DEMO_CAMERA_COUNT} (CAM-0001 onwards), on demo poles; the simulator plays their streams.`);
  say(`Demo accounts (password ${DEMO_PASSWORD}): ${DEMO_USERS.map((u) => u.username).join(', ')}`);
}

/** The broker's accounts as this process serves them: files, the broker hook, EMQX sessions (any of them). */
interface BrokerAccess {
  sync: BrokerAccessSync;
  stop(): Promise<void>;
}

const BROKER_LOGIN_WAIT_MS = 60_000;

/**
 * Starts keeping the broker's accounts from the registry, when this gateway is the one that does it (Mosquitto's
 * files with MQTT_BROKER_ACCESS_DIR, the broker hook for EMQX with MQTT_HOOK_PORT), and waits until the broker
 * takes the gateway's own account.
 */
async function startBrokerAccess(config: AppConfig): Promise<BrokerAccess | null> {
  const settings = config.brokerAccess;
  if (!settings) return null;
  const sessions = settings.emqx ? new EmqxSessions(settings.emqx) : null;
  const sync = new BrokerAccessSync(config.databaseUrl, {
    ...settings,
    brokerUrl: config.mqttUrl,
    login: config.mqttLogin,
    onRevoked: sessions ? (names) => sessions.revoke(names) : undefined,
  });
  await sync.start();
  if (settings.dir) say(`MQTT broker accounts written to ${settings.dir}: ${sync.accounts}`);
  const hook = settings.hook ? new BrokerHook(sync, { secret: settings.secret, token: settings.hook.token }) : null;
  if (hook && settings.hook) {
    const port = await hook.listen(settings.hook.port, settings.hook.host);
    say(`MQTT broker hook (EMQX HTTP authentication) on ${settings.hook.host}:${port}/mqtt/authenticate: ${sync.accounts} accounts`);
  }
  // With files, the broker must have read them before this process goes on; the hook's broker (EMQX) asks it instead.
  if (config.mqttLogin && settings.dir) {
    // A broker reading the files of a few hundred thousand accounts answers nobody for several seconds.
    // Nothing listening is not a busy broker: that fails at once, as the other services' checks do.
    await waitForMqttLogin(config.mqttUrl, config.mqttLogin, BROKER_LOGIN_WAIT_MS, () => sync.reload(), 0).catch((err: Error) => {
      throw new ServiceUnavailableError(unavailableMessage('mqtt', config.mqttUrl, err.message));
    });
  }
  return {
    sync,
    stop: async () => {
      await hook?.stop();
      sessions?.stop();
      await sync.stop();
    },
  };
}

async function serve(config: AppConfig): Promise<void> {
  await migrate(config);
  const brokerAccess = await startBrokerAccess(config);
  await checkServices(config, ['redis', 'mqtt']);
  // One access cache for the process, shared by both applications.
  const accessCache = new AccessCache(config);
  await accessCache.start();
  const consoleApp = await createConsoleApp(config, accessCache);
  const uploadApp = await createUploadApp(config, accessCache);
  const stopPurging = consoleApp.get(SessionService).startPurging();
  // Stopping is handled from here on: a SIGTERM during the start-up checks below still finishes cleanly.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    say(`${signal}: finishing requests in flight and closing connections`);
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    stopPurging();
    await Promise.allSettled([uploadApp.close(), consoleApp.close()]);
    await accessCache.stop();
    await brokerAccess?.stop();
    clearTimeout(force);
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  await consoleApp.listen(config.port, config.host);
  await uploadApp.listen(config.uploadPort, config.host);
  say(`Smart City console on http://localhost:${config.port} (API /api, docs /api/docs); uploads on port ${config.uploadPort}`);
  if (!(await Mp3Probe.available(config.media.ffprobePath)))
    say(
      `ffprobe is not installed (FFPROBE_PATH: ${config.media.ffprobePath}): media uploads cannot be checked and are refused. Install Debian's ffmpeg`,
    );
  if (config.media.linkSecretIsDefault)
    say('MEDIA_LINK_SECRET is not set: signed media links use the development secret, which is public; set one in production');
  if (config.video.secretKeyIsDefault)
    say('DEVICE_SECRET_KEY is not set: camera logins are sealed with the development key, which is public; set one in production');
}

async function main(): Promise<void> {
  const config = loadConfig();
  const command = process.argv[2] ?? 'serve';
  if (command === 'migrate') return migrate(config);
  if (command === 'seed-demo') return seedDemo(config);
  if (command === 'check') return checkServices(config, undefined, true);
  if (command === 'serve') return serve(config);
  if (command === 'broker-access') {
    // The broker's accounts only (a sidecar of the broker, docs/security.md): runs until stopped.
    await migrate(config);
    const access = await startBrokerAccess(config);
    if (!access)
      throw new UserFacingError(
        'Set MQTT_CREDENTIAL_SECRET and MQTT_BROKER_ACCESS_DIR (Mosquitto) or MQTT_HOOK_PORT (EMQX) to serve the broker accounts.',
      );
    const stop = () => void access.stop().then(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return;
  }
  if (command === 'mqtt-password') {
    // The password of one account under this installation's secret: give it to a service (MQTT_PASSWORD) or a device.
    const [username, generation] = [process.argv[3] ?? '', Number(process.argv[4] ?? 1)];
    if (!process.env.MQTT_CREDENTIAL_SECRET || !username || !(generation >= 1))
      throw new UserFacingError('Use: MQTT_CREDENTIAL_SECRET=… mqtt-password <username> [generation]');
    say(derivedMqttPassword(process.env.MQTT_CREDENTIAL_SECRET, username, generation));
    return;
  }
  if (command === 'create-admin') {
    await migrate(config);
    const name = await createAdmin(config.databaseUrl, process.argv[3] ?? '', process.env.ADMIN_PASSWORD ?? '');
    say(`Administrator "${name}" created.`);
    return;
  }
  throw new Error(
    `Unknown command "${command}". Use: serve | migrate | seed-demo | check | create-admin <username> | broker-access | mqtt-password <username> [generation]`,
  );
}

main().catch((err: unknown) => {
  if (err instanceof ServiceUnavailableError) {
    process.stderr.write(`\nCannot start: ${err.message}\n\n`);
    process.exit(2);
  }
  if (err instanceof UserFacingError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
