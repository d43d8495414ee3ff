import type { Logger } from 'pino';
import { createPool, envNumber, startDeviceWorker, type AnyFamilyHandler, type DeviceWorker, type RuntimeConfig } from '@sc/device-runtime';
import { DaylightBrightness } from './daylight/daylight-brightness';
import { ledHandler } from './families/led.handler';

/** The families the LED worker serves: its screens. */
export const LED_FAMILIES: readonly AnyFamilyHandler[] = [ledHandler];

/** The LED worker: its screens on the device runtime, and the daylight brightness rule beside them on a pool of its own. */
export async function startLedWorker(config: RuntimeConfig, logger: Logger): Promise<DeviceWorker> {
  const pool = createPool(config.databaseUrl, 2);
  const daylight = new DaylightBrightness(pool, logger);
  try {
    const worker = await startDeviceWorker({
      name: 'led',
      families: LED_FAMILIES,
      config,
      logger,
      onStopped: async () => {
        await daylight.stop();
        await pool.end();
      },
    });
    daylight.start(envNumber(process.env.LED_DAYLIGHT_INTERVAL_MS, 60_000));
    return worker;
  } catch (err) {
    // A worker that could not start leaves no pool behind.
    await pool.end();
    throw err;
  }
}
