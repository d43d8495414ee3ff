import { Logger } from '@nestjs/common';
import { DEVICE_CODE_PATTERN, DeviceFamily, FAMILIES, FAMILY_OF_DEVICE_TYPE, mqttUsernames, type DeviceType } from '@sc/contracts';
import { BROKER_ACCESS_CHANNEL, NotificationListener } from '@sc/database';
import {
  BrokerAccessDir,
  derivedMqttPassword,
  mosquittoPasswordLine,
  platformFragmentName,
  platformServices,
  speaksForRules,
  type MqttLogin,
} from '@sc/messaging';
import { Client } from 'pg';

export interface BrokerAccessSettings {
  /**
   * The broker's access directory (its `password_file` and `acl_file` are `passwords` and `acl` in it). None for a
   * broker that asks the platform at each login instead (EMQX through the broker hook): then only the book is kept.
   */
  dir?: string;
  /** Mosquitto's pid file, for SIGHUP after a change. */
  pidFile?: string;
  /** The installation's credential secret (MQTT_CREDENTIAL_SECRET). */
  secret: string;
  /**
   * Told after a write of the accounts that were deleted or given a new password since the one before (a broker that
   * does not drop their connections itself, EMQX, is asked to).
   */
  onRevoked?: (usernames: string[]) => void;
  /** The broker's URL and a login on it: the broker's reloads are paced by its answers (BrokerAccessDir). */
  brokerUrl?: string;
  login?: MqttLogin;
}

/** After an announcement, further ones within this window are taken together (an import of 10,000 lamps is one write). */
const SETTLE_MS = 250;
/** A full rewrite now and then, whatever was announced (announcements are lost while the listener reconnects). */
const RESYNC_MS = 10 * 60_000;
const LISTENER_NAME = 'sc-broker-access';

/**
 * Keeps the broker's accounts equal to the registry: every device (`{family}/{code}`, its password derived from the
 * secret and its credential generation), every recorded lamp gateway with the lights bound to it, and the platform
 * services.
 * Written as the `platform-<database>` fragment of the broker's access directory; the broker reloads it, and drops
 * the connections whose password no longer holds (a deleted or rotated device).
 */
export class BrokerAccessSync {
  private readonly logger = new Logger(BrokerAccessSync.name);
  private readonly access: BrokerAccessDir | null;
  private readonly listener: NotificationListener;
  private readonly fragment: string;
  private timer?: NodeJS.Timeout;
  private resync?: NodeJS.Timeout;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  /** Accounts in the last write (for logs and tests). */
  accounts = 0;
  /**
   * Each account's password-file line by username, with the generation it was made for: a rewrite hashes only the
   * accounts that are new or rotated (three hashes an account are most of a full write). About 250 bytes an account.
   */
  private lines = new Map<string, { generation: number; line: string }>();
  /** A lamp gateway's rules for the devices it speaks for, by username (from the last write). */
  private rules = new Map<string, string[]>();
  private loaded = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly settings: BrokerAccessSettings,
  ) {
    this.access = settings.dir
      ? new BrokerAccessDir(settings.dir, { pidFile: settings.pidFile, brokerUrl: settings.brokerUrl, login: settings.login })
      : null;
    this.fragment = platformFragmentName(databaseUrl);
    this.listener = new NotificationListener({
      databaseUrl,
      channel: BROKER_ACCESS_CHANNEL,
      applicationName: LISTENER_NAME,
      heartbeatMs: 30_000,
      onNotification: () => this.schedule(),
      onReset: () => this.schedule(),
      onInterrupted: (err) => this.logger.warn(`Broker account announcements interrupted${err ? `: ${err.message}` : ''}`),
    });
  }

  /** Writes the accounts once, then follows the registry's changes. */
  async start(): Promise<void> {
    await this.syncNow();
    await this.listener.start();
    this.resync = setInterval(() => this.schedule(), RESYNC_MS);
    this.resync.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.resync);
    await this.listener.stop();
    await this.running?.catch(() => undefined);
    await this.access?.close();
  }

  /** Signals the broker to read its files again (a login still refused after a write). */
  reload(): void {
    this.access?.reload();
  }

  /** Whether the accounts have been read from the registry at least once. */
  get ready(): boolean {
    return this.loaded;
  }

  /** An account's credential generation as last read (its password derives from it); undefined: no such account. */
  generationOf(username: string): number | undefined {
    return this.lines.get(username)?.generation;
  }

  /** The access-list lines of one account beyond the shared ones (a lamp gateway's devices). */
  rulesOf(username: string): readonly string[] {
    return this.rules.get(username) ?? [];
  }

  /** Writes the accounts now (after whatever write is in progress). */
  async syncNow(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.write().finally(() => (this.running = null));
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    // A write is already due: later announcements join it (a stream of them must not put it off for ever).
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.write()
        .catch((err: Error) => {
          this.logger.error(`Broker accounts not written: ${err.message}; trying again`);
          this.again = true;
        })
        .finally(() => {
          this.running = null;
          if (this.again && !this.stopped) {
            this.again = false;
            this.schedule();
          }
        });
    }, SETTLE_MS);
  }

  private async write(): Promise<void> {
    const started = Date.now();
    const { lines, rules, skipped } = await this.load();
    const changed = (await this.access?.write(this.fragment, { accounts: [], lines, rules })) ?? false;
    this.accounts = lines.length;
    if (skipped > 0) this.logger.warn(`${skipped} device codes cannot be MQTT usernames (DEVICE_CODE_PATTERN): those devices cannot log in`);
    if (changed) this.logger.log(`Broker accounts written: ${lines.length} (${Date.now() - started} ms)`);
  }

  private async load(): Promise<{ lines: string[]; rules: Map<string, string[]>; skipped: number }> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: LISTENER_NAME });
    await client.connect();
    try {
      // One snapshot for every read: a light moved to a gateway is listed with the gateway that exists.
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const devices = await client.query<{ type: DeviceType; code: string; generation: number }>(
        'SELECT type, code, mqtt_generation AS generation FROM device',
      );
      // Devices with records of their own (lamp gateways, floor screens): their code and generation in their table.
      const owned: { family: DeviceFamily; code: string; generation: number }[] = [];
      for (const family of FAMILIES.filter((f) => f.deviceType === null)) {
        const rows = await client.query<{ code: string; generation: number }>(`SELECT code, mqtt_generation AS generation FROM ${family.table}`);
        for (const row of rows.rows) owned.push({ family: family.family, ...row });
      }
      const bound = await client.query<{ gateway: string; family: DeviceFamily; code: string }>(
        `SELECT l.gateway_id AS gateway, '${DeviceFamily.Lamp}' AS family, d.code FROM lamp l JOIN device d ON d.id = l.device_id WHERE l.gateway_id <> ''
         UNION ALL
         SELECT s.gateway_id, '${DeviceFamily.Strip}', d.code FROM strip_light s JOIN device d ON d.id = s.device_id WHERE s.gateway_id <> ''`,
      );
      await client.query('COMMIT');
      const secret = this.settings.secret;
      // Lines of accounts that no longer exist go with the old map.
      const previous = this.lines;
      const current = new Map<string, { generation: number; line: string }>();
      const accounts: string[] = [];
      const account = (username: string, generation = 1): void => {
        let made = previous.get(username);
        if (made?.generation !== generation)
          made = { generation, line: mosquittoPasswordLine(username, derivedMqttPassword(secret, username, generation)) };
        current.set(username, made);
        accounts.push(made.line);
      };
      for (const service of platformServices()) account(mqttUsernames.service(service));
      let skipped = 0;
      for (const device of devices.rows) {
        const family = FAMILY_OF_DEVICE_TYPE[device.type];
        if (!family) continue;
        if (!DEVICE_CODE_PATTERN.test(device.code)) skipped++;
        else account(mqttUsernames.device(family, device.code), device.generation);
      }
      const rules = new Map<string, string[]>();
      for (const device of owned) {
        if (!DEVICE_CODE_PATTERN.test(device.code)) {
          skipped++;
          continue;
        }
        const username = mqttUsernames.device(device.family, device.code);
        account(username, device.generation);
        // A lamp gateway speaks for the lights bound to it (below).
        if (device.family === DeviceFamily.LampGateway) rules.set(username, []);
      }
      for (const light of bound.rows) {
        if (!DEVICE_CODE_PATTERN.test(light.code)) continue;
        // Only a recorded gateway logs in: a code the lights name without a record has no account (a light's
        // gateway is also what the light reports, so it must never create one).
        rules.get(mqttUsernames.device(DeviceFamily.LampGateway, light.gateway))?.push(...speaksForRules(light.family, light.code));
      }
      const revoked = this.loaded ? [...previous].filter(([username, made]) => current.get(username)?.generation !== made.generation) : [];
      this.lines = current;
      this.rules = rules;
      this.loaded = true;
      if (revoked.length > 0) this.settings.onRevoked?.(revoked.map(([username]) => username));
      return { lines: accounts, rules, skipped };
    } finally {
      await client.end();
    }
  }
}
