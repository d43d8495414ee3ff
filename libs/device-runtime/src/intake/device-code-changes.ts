import type { Logger } from 'pino';
import { DEVICE_CODES_CHANNEL, NotificationListener } from '@sc/database';

/** The LISTEN connection's application_name, as pg_stat_activity shows it. */
export const DEVICE_CODES_LISTENER = 'sc-device-codes';
const HEARTBEAT_MS = 2000;
/** A connection that has not answered a heartbeat for this long is treated as lost (a dropped one can look alive). */
const SILENT_AFTER_MS = 6000;

/** What a change touches: these `<type>/<code>` keys, or everything. */
export type DeviceCodeChange = { keys: string[] } | 'all';

/** Parses a sc_device_codes payload (see migration 1732196000000); anything unexpected means "everything". */
export function parseDeviceCodeChange(payload: string): DeviceCodeChange {
  if (payload === '*') return 'all';
  try {
    const keys: unknown = JSON.parse(payload);
    if (Array.isArray(keys) && keys.every((k) => typeof k === 'string')) return { keys };
  } catch {
    // fall through
  }
  return 'all';
}

/**
 * Listens, on a connection of its own, to the database's announcements of device codes added, changed or removed
 * (whoever made the change: a gateway replica, an import, psql), and hands them to `onChange`. Announcements sent
 * while the connection was down are lost, so `onChange('all')` is called when it is lost and again once LISTEN is
 * back: nothing cached before or during the gap survives.
 */
export class DeviceCodeChanges {
  private readonly listener: NotificationListener;

  constructor(databaseUrl: string, onChange: (change: DeviceCodeChange) => void, logger: Logger) {
    this.listener = new NotificationListener({
      databaseUrl,
      channel: DEVICE_CODES_CHANNEL,
      applicationName: DEVICE_CODES_LISTENER,
      heartbeatMs: HEARTBEAT_MS,
      silentAfterMs: SILENT_AFTER_MS,
      onNotification: (payload) => onChange(parseDeviceCodeChange(payload)),
      onReset: () => onChange('all'),
      onInterrupted: (err) => logger.warn({ err: err?.message }, 'device code notifications interrupted; the code cache is cleared'),
    });
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  /** Resolves once LISTEN is in place, or after the first attempt failed (it keeps retrying in the background). */
  start(): Promise<void> {
    return this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }
}
