import type { ServiceName } from '@sc/contracts';
import { PROBES } from '../infra/service-probes';
import { redactUrl, type AppConfig } from './app-config';

const LABEL: Record<ServiceName, string> = { postgres: 'PostgreSQL', redis: 'Redis', mqtt: 'the MQTT broker' };
const ENV: Record<ServiceName, string> = { postgres: 'DATABASE_URL', redis: 'REDIS_URL', mqtt: 'MQTT_URL' };
const START: Record<ServiceName, string> = {
  postgres: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start   (or: docker compose up -d postgres)',
  redis: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379   (or: docker compose up -d redis)',
  mqtt: 'mosquitto -d -c /etc/mosquitto/mosquitto.conf   (or: docker compose up -d mqtt)',
};

/** An error meant for the person at the terminal: main prints its message alone, without a stack trace. */
export class UserFacingError extends Error {}

/** A required service does not answer. */
export class ServiceUnavailableError extends UserFacingError {}

export function unavailableMessage(service: ServiceName, url: string, reason: string | undefined): string {
  return [
    `${LABEL[service]} is not answering at ${redactUrl(url)} (${reason ?? 'no answer'}).`,
    `  Start it with: ${START[service]}`,
    `  or point ${ENV[service]} at a running server.`,
  ].join('\n');
}

/** How long start-up keeps asking a service that does not answer (busy, or reloading its accounts) before giving up. */
export const SERVICE_PATIENCE_MS = 15_000;
const RETRY_EVERY_MS = 500;

/**
 * Checks each service in turn; one that is not running (the connection refused) stops start-up at once with a message
 * naming it, one that runs but does not answer yet is asked again every half second for `patienceMs` (a broker busy with
 * a burst of connections or reloading its accounts answers a moment later). `reachOnly`: a broker that refuses the
 * gateway's login still answers (`check`, before the broker's accounts are written).
 */
export async function checkServices(
  config: AppConfig,
  services: ServiceName[] = ['postgres', 'redis', 'mqtt'],
  reachOnly = false,
  patienceMs = SERVICE_PATIENCE_MS,
): Promise<void> {
  const urls: Record<ServiceName, string> = { postgres: config.databaseUrl, redis: config.redisUrl, mqtt: config.mqttUrl };
  for (const service of services) {
    const deadline = Date.now() + patienceMs;
    for (;;) {
      const health = await PROBES[service](urls[service], config.mqttLogin, reachOnly);
      if (health.ok) break;
      const notRunning = /ECONNREFUSED/.test(health.error ?? '');
      if (notRunning || Date.now() + RETRY_EVERY_MS > deadline)
        throw new ServiceUnavailableError(unavailableMessage(service, urls[service], health.error));
      await new Promise((resolve) => setTimeout(resolve, RETRY_EVERY_MS));
    }
  }
}
