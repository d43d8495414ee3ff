import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { mqttUsernames } from '@sc/contracts';
import { baseAclLines, derivedMqttPassword, emqxAcl, rulesForUser, type EmqxAclEntry } from '@sc/messaging';

/** What the hook needs of the registry's accounts: BrokerAccessSync keeps them. */
export interface AccountBook {
  readonly ready: boolean;
  generationOf(username: string): number | undefined;
  rulesOf(username: string): readonly string[];
}

export interface BrokerHookSettings {
  /** The installation's credential secret: a password is checked by deriving it again. */
  secret: string;
  /** The bearer token the broker sends (MQTT_HOOK_TOKEN): nobody else may ask. */
  token: string;
}

/** EMQX's HTTP authentication answer (docs/security.md). */
export interface HookAnswer {
  result: 'allow' | 'deny';
  is_superuser: false;
  acl?: EmqxAclEntry[];
}

/** A login as the broker sends it: the body template in deploy/emqx/emqx.conf. */
interface LoginAsked {
  username?: unknown;
  password?: unknown;
  clientid?: unknown;
}

const MAX_BODY_BYTES = 4096;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The platform's accounts for a broker that asks at each login instead of reading files (EMQX's HTTP
 * authentication, docs/security.md): the same accounts and passwords as the Mosquitto files, and with an allowed
 * login the account's access list (the same list Mosquitto enforces), so the broker asks nothing more per message.
 *
 * A device logs in under its own code as client id: another device cannot take its session over by connecting with
 * its client id (the broker would otherwise drop the first connection for the second).
 */
export class BrokerHook {
  private readonly base = baseAclLines();
  private server?: Server;
  /** Logins answered, for logs and tests. */
  readonly answered = { allow: 0, deny: 0 };

  constructor(
    private readonly book: AccountBook,
    private readonly settings: BrokerHookSettings,
  ) {}

  /** The answer to one login. */
  authenticate(asked: LoginAsked): HookAnswer {
    const deny: HookAnswer = { result: 'deny', is_superuser: false };
    const { username, password, clientid } = asked;
    if (typeof username !== 'string' || typeof password !== 'string' || typeof clientid !== 'string') return deny;
    const generation = this.book.generationOf(username);
    if (generation === undefined) return deny;
    if (!sameSecret(password, derivedMqttPassword(this.settings.secret, username, generation))) return deny;
    // A device's client id is its code (the lamp's "client ID"); the platform's services name their connections.
    if (!mqttUsernames.isService(username) && clientid !== mqttUsernames.codeOf(username)) return deny;
    return { result: 'allow', is_superuser: false, acl: emqxAcl(rulesForUser(this.base, username, this.book.rulesOf(username))) };
  }

  /** Serves `POST /mqtt/authenticate` (and `GET /healthz`) until stopped. */
  async listen(port: number, host: string): Promise<number> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, host, () => resolve());
    });
    const address = this.server.address();
    return typeof address === 'object' && address ? address.port : port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/healthz') return reply(this.book.ready ? 200 : 503, { ready: this.book.ready });
    if (req.method !== 'POST' || req.url !== '/mqtt/authenticate') return reply(404, { error: 'not found' });
    if (!sameSecret(req.headers.authorization ?? '', `Bearer ${this.settings.token}`)) return reply(401, { error: 'unauthorized' });
    // Until the accounts are read, EMQX takes a 503 as "ignore" and refuses the login: nobody logs in unchecked.
    if (!this.book.ready) return reply(503, { error: 'accounts not read yet' });
    let body: LoginAsked;
    try {
      body = JSON.parse(await readBody(req)) as LoginAsked;
    } catch {
      return reply(400, { error: 'a JSON body of at most 4 kB' });
    }
    const answer = this.authenticate(body ?? {});
    this.answered[answer.result]++;
    reply(200, answer);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('too large'));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
