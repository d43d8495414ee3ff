import { Client } from 'pg';
import type { Logger } from 'pino';
import { DEVICE_CODES_CHANNEL } from '@sc/database';

/** The LISTEN connection's application_name, as pg_stat_activity shows it. */
export const DEVICE_CODES_LISTENER = 'sc-device-codes';
const HEARTBEAT_MS = 2000;
/** A connection that has not answered a heartbeat for this long is treated as lost (a dropped one can look alive). */
const SILENT_AFTER_MS = 6000;
const RECONNECT_MS = 1000;

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
  private client: Client | null = null;
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private lastAnswer = 0;
  listening = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onChange: (change: DeviceCodeChange) => void,
    private readonly logger: Logger,
  ) {}

  /** Resolves once LISTEN is in place, or after the first attempt failed (it keeps retrying in the background). */
  start(): Promise<void> {
    return this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    this.listening = false;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: DEVICE_CODES_LISTENER,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      connectionTimeoutMillis: 5000,
    });
    let lostAlready = false;
    // A lost connection reports itself more than once (error, then end): act on the first only.
    const lost = (err?: Error) => {
      if (lostAlready) return;
      lostAlready = true;
      if (this.client === client) {
        if (this.listening) this.logger.warn({ err: err?.message }, 'device code notifications interrupted; the code cache is cleared');
        this.client = null;
        this.listening = false;
        clearInterval(this.heartbeat);
        this.onChange('all');
      }
      void client.end().catch(() => undefined);
      if (!this.stopped && this.client === null) this.retryTimer = setTimeout(() => void this.listen(), RECONNECT_MS).unref();
    };
    client.on('notification', (msg) => {
      if (msg.channel !== DEVICE_CODES_CHANNEL) return;
      this.lastAnswer = Date.now();
      this.onChange(parseDeviceCodeChange(msg.payload ?? ''));
    });
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${DEVICE_CODES_CHANNEL}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (lostAlready || this.client !== client || this.stopped) {
      void client.end().catch(() => undefined);
      return;
    }
    // Whatever changed while nobody listened is unknown: start afresh.
    this.onChange('all');
    this.listening = true;
    this.lastAnswer = Date.now();
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (Date.now() - this.lastAnswer > SILENT_AFTER_MS) return lost(new Error('no answer to the heartbeat'));
      client.query('SELECT 1').then(
        () => (this.lastAnswer = Date.now()),
        (err: Error) => lost(err),
      );
    }, HEARTBEAT_MS).unref();
  }
}
