import { MqttService, mqttUsernames } from '@sc/contracts';
import { BrokerAccessDir, platformServices, waitForMqttLogin, type BrokerAccount } from '@sc/messaging/broker-access';
import { derivedMqttPassword, type MqttLogin } from '@sc/messaging/mqtt-login';

/**
 * The broker the tests share (`npm test` starts it with the shipped configuration: nobody anonymous). Tests log in
 * like everyone else: the services with their own accounts, the simulated devices with theirs, and a test's own
 * clients (a probe that watches commands, a script that plays an odd device) with the test account below, which
 * exists only on the tests' broker: its fragment is written by the tests, never by the platform.
 */
const TEST_ACCOUNT = mqttUsernames.service('test');

function access(): BrokerAccessDir | null {
  const dir = process.env.MQTT_BROKER_ACCESS_DIR;
  return dir && process.env.MQTT_CREDENTIAL_SECRET ? new BrokerAccessDir(dir, { pidFile: process.env.MQTT_BROKER_PID_FILE }) : null;
}

function account(username: string): BrokerAccount {
  return { username, password: derivedMqttPassword(process.env.MQTT_CREDENTIAL_SECRET!, username) };
}

/** The test account's login (it may read and write every topic), or none on a broker that takes anyone. */
export function testMqttLogin(): MqttLogin | undefined {
  return process.env.MQTT_CREDENTIAL_SECRET ? account(TEST_ACCOUNT) : undefined;
}

let harness: Promise<void> | null = null;

/**
 * Grants the platform services and the test account on the tests' broker (once per test process), so a test that
 * runs a worker without a gateway beside it still finds the broker's accounts in place.
 */
export function grantTestHarness(): Promise<void> {
  harness ??= (async () => {
    const dir = access();
    if (!dir) return;
    const accounts = [...platformServices(), MqttService.Simulator].map((s) => account(mqttUsernames.service(s)));
    accounts.push(account(TEST_ACCOUNT));
    await dir.write('test-harness', { accounts, rules: new Map([[TEST_ACCOUNT, ['topic readwrite #', 'topic read $SYS/#']]]) });
    await waitForMqttLogin(process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883', testMqttLogin()!, 10_000, () => dir.reload());
  })();
  return harness;
}
