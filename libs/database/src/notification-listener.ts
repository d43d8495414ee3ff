import { Client } from 'pg';

export interface NotificationListenerOptions {
  databaseUrl: string;
  channel: string;
  /** The connection's application_name, so operators (and tests) find it in pg_stat_activity. */
  applicationName: string;
  /** How often the connection is asked `SELECT 1`, to notice a connection that died without saying so. */
  heartbeatMs: number;
  /** A heartbeat unanswered for this long counts as a lost connection (off when absent). */
  silentAfterMs?: number;
  /** Wait before connecting again after a loss. Default 1 s. */
  reconnectMs?: number;
  onNotification: (payload: string) => void;
  /**
   * Called when the connection is lost and again once LISTEN is back in place: notifications sent meanwhile are
   * gone, so whatever was learnt from them may be stale.
   */
  onReset: () => void;
  /** Called when a connection that was listening is lost (for a log line). */
  onInterrupted?: (err: Error | undefined) => void;
}

/**
 * LISTEN on a PostgreSQL channel over a connection of its own, reconnecting until stopped. Announcements made while
 * nobody listened are lost, which is why users hear `onReset` on every loss and every new start.
 */
export class NotificationListener {
  private client: Client | null = null;
  private stopped = false;
  private retryTimer?: NodeJS.Timeout;
  private heartbeat?: NodeJS.Timeout;
  private listeningNow = false;
  private answeredAt = 0;

  constructor(private readonly options: NotificationListenerOptions) {}

  get listening(): boolean {
    return this.listeningNow;
  }

  /** When the connection last answered (a notification or a heartbeat), in ms since the epoch. */
  get lastAnswer(): number {
    return this.answeredAt;
  }

  /** Resolves once LISTEN is in place, or after the first attempt failed (it keeps retrying in the background). */
  start(): Promise<void> {
    this.stopped = false;
    return this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.heartbeat);
    this.listeningNow = false;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const { databaseUrl, channel, applicationName, heartbeatMs, silentAfterMs, reconnectMs = 1000 } = this.options;
    const client = new Client({
      connectionString: databaseUrl,
      application_name: applicationName,
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
        if (this.listeningNow) this.options.onInterrupted?.(err);
        this.client = null;
        this.listeningNow = false;
        clearInterval(this.heartbeat);
        this.options.onReset();
      }
      void client.end().catch(() => undefined);
      if (!this.stopped && this.client === null) this.retryTimer = setTimeout(() => void this.listen(), reconnectMs).unref();
    };
    client.on('notification', (msg) => {
      if (msg.channel !== channel) return;
      this.answeredAt = Date.now();
      this.options.onNotification(msg.payload ?? '');
    });
    client.on('error', lost);
    client.on('end', () => lost());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      lost(err as Error);
      return;
    }
    if (lostAlready || this.client !== client || this.stopped) {
      void client.end().catch(() => undefined);
      return;
    }
    this.options.onReset();
    this.answeredAt = Date.now();
    this.listeningNow = true;
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => {
      if (silentAfterMs !== undefined && Date.now() - this.answeredAt > silentAfterMs) return lost(new Error('no answer to the heartbeat'));
      client.query('SELECT 1').then(
        () => (this.answeredAt = Date.now()),
        (err: Error) => lost(err),
      );
    }, heartbeatMs).unref();
  }
}
