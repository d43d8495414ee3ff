import { Logger } from '@nestjs/common';
import { mqttUsernames } from '@sc/contracts';

export interface EmqxApiSettings {
  /** The cluster's REST API, e.g. http://emqx:18083 (EMQX_API_URL). */
  url: string;
  /** An API key and its secret, made in the EMQX dashboard (EMQX_API_KEY, EMQX_API_SECRET). */
  key: string;
  secret: string;
}

const PARALLEL = 8;
/** A kick the cluster did not take is asked again after 1, 2, 4 and 8 s, then left to an operator (an error in the log). */
const ATTEMPTS = 5;

/**
 * Ends the broker sessions of revoked accounts on an EMQX cluster. EMQX checks a login only when a client connects,
 * so a device deleted or given a new password keeps its connection until told: this asks the cluster to kick the
 * client (its client id is its code, which the broker hook enforces). Mosquitto needs none of this: it drops those
 * connections itself when it reloads its files.
 */
export class EmqxSessions {
  private readonly logger = new Logger(EmqxSessions.name);
  private readonly authorization: string;
  /** Client ids waiting to be kicked (a storm of revocations is worked off PARALLEL at a time, each once). */
  private readonly waiting = new Set<string>();
  private running = 0;
  private readonly failures = new Map<string, number>();
  private readonly retries = new Set<NodeJS.Timeout>();
  /** Sessions ended (or already gone) and requests that failed, for logs and tests. */
  readonly counts = { kicked: 0, failed: 0 };

  constructor(private readonly settings: EmqxApiSettings) {
    this.authorization = `Basic ${Buffer.from(`${settings.key}:${settings.secret}`).toString('base64')}`;
  }

  /** Kicks the devices among `usernames` (`{family}/{code}`); services keep their sessions. */
  revoke(usernames: readonly string[]): void {
    for (const username of usernames) if (!mqttUsernames.isService(username)) this.waiting.add(mqttUsernames.codeOf(username));
    this.pump();
  }

  /** Resolves once nothing is waiting, being kicked or due to be asked again (tests). */
  async idle(): Promise<void> {
    while (this.running > 0 || this.waiting.size > 0 || this.retries.size > 0) await new Promise((r) => setTimeout(r, 20));
  }

  stop(): void {
    for (const retry of this.retries) clearTimeout(retry);
    this.retries.clear();
    this.waiting.clear();
  }

  private pump(): void {
    while (this.running < PARALLEL && this.waiting.size > 0) void this.next();
  }

  private async next(): Promise<void> {
    const [clientId] = this.waiting;
    if (clientId === undefined) return;
    this.waiting.delete(clientId);
    this.running++;
    try {
      const response = await fetch(`${this.settings.url.replace(/\/$/, '')}/api/v5/clients/${encodeURIComponent(clientId)}`, {
        method: 'DELETE',
        headers: { Authorization: this.authorization },
        signal: AbortSignal.timeout(10_000),
      });
      // 204: kicked; 404: not connected. Either way the old login is off the broker.
      if (response.status !== 204 && response.status !== 404) throw new Error(`HTTP ${response.status}`);
      this.counts.kicked++;
      this.failures.delete(clientId);
    } catch (err) {
      this.counts.failed++;
      const failures = (this.failures.get(clientId) ?? 0) + 1;
      this.logger.warn(`EMQX did not end the session of ${clientId} (attempt ${failures}): ${(err as Error).message}`);
      if (failures < ATTEMPTS) {
        this.failures.set(clientId, failures);
        const retry = setTimeout(
          () => {
            this.retries.delete(retry);
            this.waiting.add(clientId);
            this.pump();
          },
          1000 * 2 ** (failures - 1),
        );
        this.retries.add(retry);
      } else {
        this.failures.delete(clientId);
        this.logger.error(`EMQX kept the session of ${clientId}, whose login was revoked: end it in the EMQX dashboard`);
      }
    } finally {
      this.running--;
      this.pump();
    }
  }
}
