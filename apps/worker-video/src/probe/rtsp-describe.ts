import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** What a DESCRIBE found: an answer with its status, or no answer at all (refused, closed, timed out). */
export type DescribeOutcome = { answered: true; status: number } | { answered: false; reason: string };

export interface RtspLogin {
  username: string;
  password: string;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** The parameters of a `WWW-Authenticate: Digest …` challenge. */
function challengeParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of header.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)) params[m[1].toLowerCase()] = m[2] ?? m[3];
  return params;
}

/**
 * The Authorization header answering a 401's challenges for a request: Digest (what Dahua and Haikang cameras ask for;
 * MD5, with or without qop=auth) when offered, else Basic.
 */
export function authorizationFor(challenges: readonly string[], method: string, uri: string, login: RtspLogin): string | null {
  const digest = challenges.find((c) => /^digest\s/i.test(c));
  if (digest) {
    const p = challengeParams(digest.slice(7));
    if (!p.realm || !p.nonce || (p.algorithm && p.algorithm.toUpperCase() !== 'MD5')) return null;
    const ha1 = md5(`${login.username}:${p.realm}:${login.password}`);
    const ha2 = md5(`${method}:${uri}`);
    const fields = [`username="${login.username}"`, `realm="${p.realm}"`, `nonce="${p.nonce}"`, `uri="${uri}"`];
    if (p.qop?.split(',').some((q) => q.trim() === 'auth')) {
      const cnonce = randomBytes(8).toString('hex');
      fields.push(`qop=auth`, `nc=00000001`, `cnonce="${cnonce}"`, `response="${md5(`${ha1}:${p.nonce}:00000001:${cnonce}:auth:${ha2}`)}"`);
    } else fields.push(`response="${md5(`${ha1}:${p.nonce}:${ha2}`)}"`);
    if (p.opaque) fields.push(`opaque="${p.opaque}"`);
    return `Digest ${fields.join(', ')}`;
  }
  if (challenges.some((c) => /^basic\b/i.test(c))) return `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
  return null;
}

interface RtspAnswer {
  status: number;
  headers: Map<string, string[]>;
}

/** Sends requests on one connection, one at a time, and reads each answer's status line and headers. */
class RtspConnection {
  private buffer = Buffer.alloc(0);
  private waiting: ((answer: RtspAnswer | Error) => void) | null = null;
  private ended: Error | null = null;
  private cseq = 0;

  constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.deliver();
    });
    const end = (err?: Error) => {
      this.ended ??= err ?? new Error('closed without an answer');
      this.waiting?.(this.ended);
      this.waiting = null;
    };
    socket.on('error', end);
    socket.on('close', () => end());
  }

  request(method: string, uri: string, headers: Record<string, string>): Promise<RtspAnswer> {
    if (this.ended) return Promise.reject(this.ended);
    const lines = [
      `${method} ${uri} RTSP/1.0`,
      `CSeq: ${++this.cseq}`,
      'User-Agent: smart-city-video-probe',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    return new Promise((resolve, reject) => {
      this.waiting = (answer) => (answer instanceof Error ? reject(answer) : resolve(answer));
      this.deliver();
    });
  }

  private deliver(): void {
    if (!this.waiting) return;
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) {
      if (this.buffer.length > 64 * 1024) this.socket.destroy(new Error('answer too long'));
      return;
    }
    const [statusLine, ...headerLines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const headers = new Map<string, string[]>();
    for (const line of headerLines) {
      const colon = line.indexOf(':');
      if (colon > 0) {
        const name = line.slice(0, colon).trim().toLowerCase();
        headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
      }
    }
    const length = Number(headers.get('content-length')?.[0] ?? 0);
    if (this.buffer.length < end + 4 + length) return;
    this.buffer = this.buffer.subarray(end + 4 + length);
    const match = /^RTSP\/1\.\d (\d{3})/.exec(statusLine);
    const waiting = this.waiting;
    this.waiting = null;
    waiting(match ? { status: Number(match[1]), headers } : new Error('not an RTSP answer'));
  }
}

/**
 * Asks a camera for its stream's description (RTSP DESCRIBE) with a login, as a player would before playing: whether
 * it answers at all, and with which status (200 the stream is there and the login taken, 401 the login refused, 404
 * no stream at that address). The whole exchange is bounded by `timeoutMs`; nothing of the login goes in an error.
 */
export async function describe(url: string, login: RtspLogin | null, timeoutMs: number): Promise<DescribeOutcome> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { answered: false, reason: 'bad address' };
  }
  const port = Number(target.port || 554);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const socket = connect({ host, port });
  const timer = setTimeout(() => socket.destroy(new Error('no answer in time')), timeoutMs);
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
      socket.once('close', () => reject(new Error('closed')));
    });
    const connection = new RtspConnection(socket);
    const uri = `${target.protocol}//${target.host}${target.pathname}${target.search}`;
    const accept = { Accept: 'application/sdp' };
    let answer = await connection.request('DESCRIBE', uri, accept);
    if (answer.status === 401 && login) {
      const authorization = authorizationFor(answer.headers.get('www-authenticate') ?? [], 'DESCRIBE', uri, login);
      if (authorization) answer = await connection.request('DESCRIBE', uri, { ...accept, Authorization: authorization });
    }
    return { answered: true, status: answer.status };
  } catch (err) {
    return { answered: false, reason: (err as Error).message };
  } finally {
    clearTimeout(timer);
    socket.destroy();
  }
}
