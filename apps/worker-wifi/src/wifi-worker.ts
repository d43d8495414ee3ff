import type { Logger } from 'pino';
import { createPool, startDeviceWorker, type AnyFamilyHandler, type ChangeObserver, type DeviceWorker, type RuntimeConfig } from '@sc/device-runtime';
import { ClientSessions } from './clients/client-sessions';
import { LoadSamples } from './clients/load-samples';
import { SessionMonths } from './clients/session-months';
import { acHandler } from './families/ac.handler';
import { apHandler } from './families/ap.handler';

/**
 * The families the Wi-Fi worker serves: access controllers and the access points under them. One process for both:
 * an access point is managed through its controller's management plane, and both report much (load, clients) and
 * take few commands (a reboot), so they share a queue and a connection rather than each holding a worker of its own.
 */
export const WIFI_FAMILIES: readonly AnyFamilyHandler[] = [acHandler, apHandler];

/** What the worker writes beside the rows: the clients' sessions, and both families' load over time. */
export const WIFI_OBSERVERS = (): ChangeObserver[] => [
  new ClientSessions(),
  new LoadSamples(acHandler.declaration.family),
  new LoadSamples(apHandler.declaration.family),
];

const SIX_HOURS_MS = 6 * 3600_000;

/** The Wi-Fi worker: its devices on the device runtime, their clients' sessions beside them, and the history's months. */
export async function startWifiWorker(config: RuntimeConfig, logger: Logger): Promise<DeviceWorker> {
  const pool = createPool(config.databaseUrl, 1);
  const months = new SessionMonths(pool, logger);
  try {
    const worker = await startDeviceWorker({
      name: 'wifi',
      families: WIFI_FAMILIES,
      observers: WIFI_OBSERVERS(),
      config,
      logger,
      onStopped: async () => {
        await months.stop();
        await pool.end();
      },
    });
    months.start(SIX_HOURS_MS);
    return worker;
  } catch (err) {
    await pool.end();
    throw err;
  }
}
