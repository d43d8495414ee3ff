import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAMILIES, MQTT_TOPIC_ROOT, MqttChannel, MqttService, mqttTopics, mqttUsernames, DeviceFamily, type FamilyDeclaration } from '@sc/contracts';
import mqtt from 'mqtt';
import { isLoginRefused, type MqttLogin } from './mqtt-login';

/**
 * The broker's access files (Mosquitto's `password_file` and `acl_file`), made by the platform (docs/security.md).
 *
 * Several writers may share one broker: the platform's writer (the registry's devices, lamp gateways and services),
 * and on a development machine a simulator's invented gateways or a test run's own accounts. Each writes a fragment
 * of its own under `fragments/`; the fragments are merged into `passwords` and `acl` under a lock, and the broker is
 * told to reload (SIGHUP) when they change. On reload Mosquitto also disconnects the clients whose password no longer
 * matches: a deleted or rotated device is off at once.
 *
 * A reload blocks the broker's one thread: every connected client waits while it reads the files (about 3 s at 100,000
 * accounts on two busy cores, docs/benchmarks.md). Mosquitto also forgets a SIGHUP that arrives while it reloads (it
 * clears its flag when the reload ends), so a change written meanwhile would stay unread. Given the broker's URL, the
 * reloads are paced: a signal goes out only once the broker has answered after the previous one (it finished that
 * reload), the signals asked for meanwhile are taken together, and the broker serves its clients at least as long as
 * its last reload took before the next one.
 */

/** One account of a fragment; the password is hashed before it is written. */
export interface BrokerAccount {
  username: string;
  password: string;
}

/** What one writer grants: accounts, and per-account topic rules beyond the shared ones (a gateway's devices). */
export interface BrokerAccessFragment {
  accounts: readonly BrokerAccount[];
  /** Password-file lines made earlier with mosquittoPasswordLine (a writer that keeps them between writes). */
  lines?: readonly string[];
  /** Username → ACL lines (`topic read|write|readwrite <filter>`). */
  rules?: ReadonlyMap<string, readonly string[]>;
}

/**
 * Mosquitto's `$6$` password hash: SHA-512 over the password and a salt. Mosquitto also takes PBKDF2 (`$7$`), which
 * slows guessing of passwords people choose; these passwords are 256-bit derived values, and a single SHA-512 keeps a
 * password file of 100,000 devices quick to write and for the broker to load. The salt is derived from the username,
 * so an unchanged account gives an unchanged line (and no needless reload).
 */
export function mosquittoPasswordLine(username: string, password: string): string {
  const salt = createHash('sha256').update(`salt\n${username}`).digest().subarray(0, 12);
  const hash = createHash('sha512').update(password).update(salt).digest();
  return `${username}:$6$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** The fragment the platform's writer for one registry (database) keeps in a broker's access directory. */
export function platformFragmentName(databaseUrl: string): string {
  return `platform-${new URL(databaseUrl).pathname.slice(1) || 'default'}`;
}

const REPORT_CHANNELS = [MqttChannel.State, MqttChannel.Ack, MqttChannel.Telemetry, MqttChannel.Event];

/**
 * The rules of a gateway for a device that speaks through it: it may report on the device's channels and read its
 * commands (never send it one).
 */
export function speaksForRules(family: DeviceFamily, code: string): string[] {
  return [
    ...REPORT_CHANNELS.map((channel) => `topic write ${mqttTopics.of(family, code, channel)}`),
    `topic read ${mqttTopics.of(family, code, MqttChannel.Cmd)}`,
  ];
}

/**
 * The rules every broker of the platform has: each device (username `{family}/{code}`) on its own topics only, and
 * each platform service with exactly what its families need (from their declarations).
 */
export function baseAclLines(families: readonly FamilyDeclaration[] = FAMILIES): string[] {
  const lines = [
    '# Made by the platform (libs/messaging/src/broker-access.ts). Devices: their own topics only.',
    ...REPORT_CHANNELS.map((channel) => `pattern write ${MQTT_TOPIC_ROOT}/%u/${channel}`),
    `pattern read ${MQTT_TOPIC_ROOT}/%u/${MqttChannel.Cmd}`,
    // Lamps on a sensing strategy hear their radars themselves (docs/asyncapi.yaml): every account may read radar events.
    `pattern read ${mqttTopics.all(DeviceFamily.Radar, MqttChannel.Event)}`,
  ];
  const workers = [...new Set(families.map((f) => f.worker))].sort();
  for (const worker of workers) {
    lines.push('', `user ${mqttUsernames.service(worker)}`);
    for (const family of families.filter((f) => f.worker === worker)) {
      for (const channel of REPORT_CHANNELS) lines.push(`topic read ${mqttTopics.all(family.family, channel)}`);
      if (Object.keys(family.commands).length > 0) lines.push(`topic write ${mqttTopics.all(family.family, MqttChannel.Cmd)}`);
    }
  }
  // The simulator's own connection (it hears the radars for the simulated lamps) and the gateway (it only checks that
  // the broker answers) have no rights beyond the shared ones.
  return lines;
}

/** The platform services that log in to the broker: the gateway and every worker that hosts a family. */
export function platformServices(families: readonly FamilyDeclaration[] = FAMILIES): string[] {
  return [MqttService.Gateway, ...new Set(families.map((f) => f.worker))];
}

const LOCK_STALE_MS = 30_000;
const RELOAD_AGAIN_MS = 1000;
const LOCK_WAIT_MS = 15_000;
/** How long a paced reload waits for the broker to answer before it signals again anyway. */
const ANSWER_WAIT_MS = 120_000;
/** Another writer's fragment changed this recently: its signal may have taken ours into a reload of older files. */
const OTHERS_RECENT_MS = 60_000;
/** Usernames go into `name:hash` lines and `user name` ACL lines. */
const SAFE_USERNAME = /^[A-Za-z0-9_.\-/]{1,140}$/;

export interface BrokerAccessDirOptions {
  /** Mosquitto's pid file: the broker is sent SIGHUP when the merged files change. */
  pidFile?: string;
  /** The broker's URL: reloads are paced by its answers (see above). Without it, a signal is repeated a second later. */
  brokerUrl?: string;
  /** A login for the broker's answers (without one, the broker's refusal of an anonymous client is its answer). */
  login?: MqttLogin;
}

/** A broker's access directory: fragments in, merged `passwords` and `acl` out. */
export class BrokerAccessDir {
  readonly passwordFile: string;
  readonly aclFile: string;
  private readonly fragments: string;
  private again?: NodeJS.Timeout;
  /** Paced reloads: the one in progress, whether another was asked for meanwhile, and whether to stop pacing. */
  private pacing: Promise<void> | null = null;
  private pending = false;
  private closed = false;
  private ownName?: string;

  constructor(
    readonly dir: string,
    private readonly options: BrokerAccessDirOptions = {},
  ) {
    this.passwordFile = join(dir, 'passwords');
    this.aclFile = join(dir, 'acl');
    this.fragments = join(dir, 'fragments');
  }

  /** Replaces this writer's fragment and merges; answers whether the broker's files changed. */
  async write(name: string, fragment: BrokerAccessFragment): Promise<boolean> {
    const passwords: string[] = [];
    for (const line of fragment.lines ?? []) {
      const username = line.slice(0, line.indexOf(':'));
      if (!SAFE_USERNAME.test(username) || line.includes('\n')) throw new Error(`MQTT password line not allowed: ${JSON.stringify(username)}`);
      passwords.push(line);
    }
    for (const account of fragment.accounts) {
      if (!SAFE_USERNAME.test(account.username)) throw new Error(`MQTT username not allowed: ${JSON.stringify(account.username)}`);
      passwords.push(mosquittoPasswordLine(account.username, account.password));
    }
    const acl: string[] = [];
    for (const [username, rules] of fragment.rules ?? []) {
      if (!SAFE_USERNAME.test(username)) throw new Error(`MQTT username not allowed: ${JSON.stringify(username)}`);
      if (rules.length > 0) acl.push('', `user ${username}`, ...rules);
    }
    mkdirSync(this.fragments, { recursive: true });
    this.ownName = fragmentName(name);
    const base = join(this.fragments, this.ownName);
    atomicWrite(`${base}.passwd`, passwords.join('\n') + '\n');
    atomicWrite(`${base}.acl`, acl.join('\n') + '\n');
    return this.merge();
  }

  /** Takes this writer's fragment out (a simulator or test that stops). */
  async remove(name: string): Promise<boolean> {
    const base = join(this.fragments, fragmentName(name));
    rmSync(`${base}.passwd`, { force: true });
    rmSync(`${base}.acl`, { force: true });
    return this.merge();
  }

  /**
   * Merges every fragment into the broker's files and signals the broker. Fragments are taken in name order and the
   * first to name a username wins it: a development tool's (`dev-…`, a simulator playing devices) come before the
   * platform's (`platform-…`); a production broker has the platform's only.
   */
  merge(): Promise<boolean> {
    return this.locked(() => {
      mkdirSync(this.fragments, { recursive: true });
      const names = readdirSync(this.fragments)
        .filter((f) => f.endsWith('.passwd'))
        .map((f) => f.slice(0, -'.passwd'.length))
        .sort();
      const seen = new Set<string>();
      const passwords: string[] = [];
      const acl = [...baseAclLines()];
      for (const name of names) {
        for (const line of readIfThere(join(this.fragments, `${name}.passwd`)).split('\n')) {
          const username = line.slice(0, line.indexOf(':'));
          if (!line || seen.has(username)) continue;
          seen.add(username);
          passwords.push(line);
        }
        const rules = readIfThere(join(this.fragments, `${name}.acl`)).trim();
        if (rules) acl.push('', `# ${name}`, rules);
      }
      const changed = replaceIfDifferent(this.passwordFile, passwords.join('\n') + '\n') | replaceIfDifferent(this.aclFile, acl.join('\n') + '\n');
      if (changed) this.reload();
      return changed === 1;
    });
  }

  /**
   * Tells the broker to read its files again (SIGHUP). Paced when the broker's URL is known (see above); otherwise sent
   * now and once more a second later: a signal that arrives while the broker is still reloading for another writer is
   * forgotten, and that reload can have read older files.
   */
  reload(): void {
    if (this.options.brokerUrl) {
      this.pending = true;
      this.pacing ??= this.paced().finally(() => (this.pacing = null));
      return;
    }
    this.signal();
    if (this.again) return;
    this.again = setTimeout(() => {
      this.again = undefined;
      this.signal();
    }, RELOAD_AGAIN_MS);
    this.again.unref();
  }

  /** Resolves when no paced reload is in progress or due (a reload asked for before is then read by the broker). */
  async settled(): Promise<void> {
    while (this.pacing) await this.pacing;
  }

  /** Stops pacing: a reload in progress ends without waiting for the broker. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.again);
    await this.settled();
  }

  private async paced(): Promise<void> {
    let followUp = true;
    while (!this.closed) {
      if (!this.pending) {
        // Only this writer signals (production): its own signals never meet a reload of its own. Another writer's may
        // have, so once more after theirs.
        if (!followUp || !this.othersWroteRecently()) return;
        followUp = false;
      }
      this.pending = false;
      const sent = Date.now();
      if (!this.signal()) return;
      await this.answered();
      // The broker serves its clients at least as long as it spent reading its files before it is signalled again.
      const took = Date.now() - sent;
      if (!this.closed && (this.pending || followUp)) await new Promise((r) => setTimeout(r, Math.min(took, ANSWER_WAIT_MS)));
    }
  }

  /** Waits until the broker answers a CONNECT (any CONNACK, a refusal included): its reload is over. */
  private async answered(): Promise<void> {
    const url = this.options.brokerUrl;
    const deadline = Date.now() + ANSWER_WAIT_MS;
    while (url && !this.closed && Date.now() < deadline) {
      try {
        const client = await mqtt.connectAsync(url, {
          ...this.options.login,
          clientId: `access-check-${Math.random().toString(36).slice(2)}`,
          reconnectPeriod: 0,
          connectTimeout: 5000,
        });
        await client.endAsync(true);
        return;
      } catch (err) {
        if (isLoginRefused(err)) return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private othersWroteRecently(): boolean {
    try {
      const since = Date.now() - OTHERS_RECENT_MS;
      return readdirSync(this.fragments).some((f) => !f.startsWith(`${this.ownName}.`) && statSync(join(this.fragments, f)).mtimeMs >= since);
    } catch {
      return false;
    }
  }

  /** Sends the broker SIGHUP; answers whether it was sent. */
  private signal(): boolean {
    if (!this.options.pidFile) return false;
    const pid = Number(readIfThere(this.options.pidFile).trim());
    if (!(pid > 0)) return false;
    try {
      process.kill(pid, 'SIGHUP');
      return true;
    } catch {
      // The broker is not running (yet): it reads the files when it starts.
      return false;
    }
  }

  private async locked<T>(work: () => T): Promise<T> {
    const lock = join(this.dir, '.merge-lock');
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        try {
          if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) rmdirSync(lock);
        } catch {
          // released meanwhile
        }
        if (Date.now() > deadline) throw new Error(`broker access files locked for ${LOCK_WAIT_MS} ms: ${lock}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    try {
      return work();
    } finally {
      rmdirSync(lock);
    }
  }
}

function fragmentName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, '_');
}

function readIfThere(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function atomicWrite(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o644 });
  renameSync(temporary, file);
}

/** 1 when the file was replaced, 0 when it already held the text. */
function replaceIfDifferent(file: string, text: string): 0 | 1 {
  if (readIfThere(file) === text) return 0;
  atomicWrite(file, text);
  return 1;
}

/**
 * Waits until the broker takes the login (after a writer changed the access files, the broker reloads them on its
 * own time); `nudge`, when given, is called at most every second while the broker turns the login down (to signal it
 * again), never while it is slow to answer. Throws after
 * `timeoutMs`.
 */
export async function waitForMqttLogin(
  url: string,
  login: MqttLogin,
  timeoutMs = 10_000,
  nudge?: () => void,
  /** How long nothing may listen at `url` (connection refused) before giving up; a busy broker gets `timeoutMs`. */
  refusedMs = timeoutMs,
): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  let refusedSince: number | null = null;
  let nudged = started;
  let last = '';
  // Only a login the broker turned down calls for a nudge: one it did not answer in time means a busy broker (perhaps
  // reloading its files), which another reload every second would keep busy.
  let turnedDown = false;
  for (;;) {
    if (nudge && turnedDown && Date.now() - nudged >= 1000) {
      nudged = Date.now();
      nudge();
    }
    try {
      const client = await mqtt.connectAsync(url, {
        ...login,
        clientId: `login-check-${Math.random().toString(36).slice(2)}`,
        reconnectPeriod: 0,
        connectTimeout: 2000,
      });
      await client.endAsync();
      return;
    } catch (err) {
      last = (err as Error).message;
      turnedDown = /not authori[sz]ed|bad user ?name or password/i.test(last);
      const refused = (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
      refusedSince = refused ? (refusedSince ?? Date.now()) : null;
      if (refusedSince !== null && Date.now() - refusedSince >= refusedMs) throw new Error(`MQTT broker ${url} refused the connection: ${last}`);
    }
    if (Date.now() > deadline) throw new Error(`MQTT broker ${url} did not accept ${login.username} within ${timeoutMs} ms: ${last}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
