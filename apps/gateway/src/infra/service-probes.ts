import { isLoginRefused, type MqttLogin } from '@sc/messaging';
import mqtt from 'mqtt';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import type { ServiceHealth, ServiceName } from '@sc/contracts';

/** Runs one probe and reports whether it answered (within `timeoutMs`, when given) and how fast. */
export async function timed(run: () => Promise<unknown>, timeoutMs?: number): Promise<ServiceHealth> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      if (timeoutMs !== undefined) timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    await Promise.race([run(), timeout]);
    return { ok: true, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    return { ok: false, latencyMs: null, error: err instanceof Error ? err.message || err.name : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** The server answers even when the database itself is still to be created (by `migrate`). */
export function probePostgres(url: string, timeoutMs = 3000): Promise<ServiceHealth> {
  return timed(async () => {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } catch (err) {
      if ((err as { code?: string }).code !== '3D000') throw err;
    } finally {
      await client.end().catch(() => undefined);
    }
  });
}

export function probeRedis(url: string, timeoutMs = 3000): Promise<ServiceHealth> {
  return timed(async () => {
    const client = new Redis(url, { lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
    } finally {
      client.disconnect();
    }
  });
}

/**
 * Connects with the gateway's MQTT account (`svc/gateway`), when the broker takes only known clients. With
 * `reachOnly`, a refused login counts as an answer (`check`: the broker runs, whether or not the accounts are written yet).
 */
export function probeMqtt(url: string, timeoutMs = 3000, login?: MqttLogin, reachOnly = false): Promise<ServiceHealth> {
  return timed(
    () =>
      new Promise<void>((resolve, reject) => {
        const client = mqtt.connect(url, { connectTimeout: timeoutMs, reconnectPeriod: 0, clientId: `sc-probe-${randomUUID()}`, ...login });
        const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs + 200);
        const finish = (err?: Error) => {
          clearTimeout(timer);
          client.end(true);
          if (err) reject(err);
          else resolve();
        };
        client.once('connect', () => finish());
        client.once('error', (err) => finish(reachOnly && isLoginRefused(err) ? undefined : err));
        client.once('close', () => finish(new Error('connection closed')));
      }),
  );
}

export const PROBES: Record<ServiceName, (url: string, login?: MqttLogin, reachOnly?: boolean) => Promise<ServiceHealth>> = {
  postgres: (url) => probePostgres(url),
  redis: (url) => probeRedis(url),
  mqtt: (url, login, reachOnly) => probeMqtt(url, 3000, login, reachOnly),
};
