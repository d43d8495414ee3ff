import { createHmac } from 'node:crypto';

/** The credentials one MQTT connection presents. */
export interface MqttLogin {
  username: string;
  password: string;
}

/**
 * The password of an MQTT account derived from the installation's credential secret (MQTT_CREDENTIAL_SECRET):
 * HMAC-SHA256 over the username and the account's generation (raised by every rotation), in hex (64 characters that
 * survive copying, spreadsheets and shells: none starts a formula or needs quoting). Whoever holds the
 * secret can compute every password: the broker's access writer, which puts their hashes in the broker's password
 * file, and on a development machine the simulator, which connects as the simulated devices. Deployed devices and
 * services are given their own password only (docs/security.md).
 */
export function derivedMqttPassword(secret: string, username: string, generation = 1): string {
  return createHmac('sha256', secret).update(`${username}\n${generation}`).digest('hex');
}

/** CONNACK codes of a refused login (MQTT 3.1.1: 4 and 5; MQTT 5: 134 and 135). */
const LOGIN_REFUSED = new Set([4, 5, 134, 135]);

/** Whether an MQTT client's error is the broker refusing its login (not an unreachable or failing broker). */
export function isLoginRefused(err: unknown): boolean {
  return LOGIN_REFUSED.has(Number((err as { code?: unknown } | undefined)?.code));
}

/**
 * The login of a platform service (`svc/<service>`): MQTT_PASSWORD when given (a deployment's secret for that service),
 * else derived from MQTT_CREDENTIAL_SECRET, else none (a broker that takes anonymous clients, e.g. one of the
 * developer's own). MQTT_USERNAME overrides the account name.
 */
export function serviceMqttLogin(service: string, env: NodeJS.ProcessEnv = process.env): MqttLogin | undefined {
  const username = env.MQTT_USERNAME || `svc/${service}`;
  if (env.MQTT_PASSWORD) return { username, password: env.MQTT_PASSWORD };
  if (env.MQTT_CREDENTIAL_SECRET) return { username, password: derivedMqttPassword(env.MQTT_CREDENTIAL_SECRET, username) };
  return undefined;
}
