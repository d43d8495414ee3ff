// Cheap MQTT checks for the benchmarks of the broker's accounts: whether the broker takes a login (one CONNECT over a
// raw socket, no client library: a change storm checks tens of thousands of them), and a probe on one connected client
// that measures how long the broker keeps connected clients waiting (a reload of its files blocks its one thread).
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { clearInterval, setInterval } from 'node:timers';
import mqtt from 'mqtt';

function utf8Field(text) {
  const bytes = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function remainingLength(n) {
  const out = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    out.push(byte);
  } while (n > 0);
  return Buffer.from(out);
}

/** An MQTT 3.1.1 CONNECT with username and password, clean session. */
function connectPacket(username, password) {
  const body = Buffer.concat([
    utf8Field('MQTT'),
    Buffer.from([4, 0xc2, 0, 60]),
    utf8Field(`check-${randomBytes(6).toString('hex')}`),
    utf8Field(username),
    utf8Field(password),
  ]);
  return Buffer.concat([Buffer.from([0x10]), remainingLength(body.length), body]);
}

/**
 * Whether the broker at `url` takes the login: true on CONNACK 0, false on a refusal (4 or 5). Throws when the broker
 * does not answer within `timeoutMs` or answers something else.
 */
export function loginTaken(url, username, password, timeoutMs = 10_000) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port || 1883) });
    let answer = Buffer.alloc(0);
    let finished = false;
    const done = (err, taken) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (taken) socket.end(Buffer.from([0xe0, 0]));
      else socket.destroy();
      if (err) reject(err);
      else resolve(taken);
    };
    const timer = setTimeout(() => done(new Error(`no CONNACK for ${username} within ${timeoutMs} ms`)), timeoutMs);
    socket.once('connect', () => socket.write(connectPacket(username, password)));
    socket.on('data', (chunk) => {
      answer = Buffer.concat([answer, chunk]);
      if (answer.length < 4) return;
      if (answer[0] !== 0x20) return done(new Error(`unexpected answer to CONNECT for ${username}: ${answer.toString('hex')}`));
      const code = answer[3];
      if (code === 0) done(null, true);
      else if (code === 4 || code === 5) done(null, false);
      else done(new Error(`CONNACK ${code} for ${username}`));
    });
    socket.once('error', (err) => done(err));
    socket.once('close', () => done(new Error(`connection closed before CONNACK for ${username}`)));
  });
}

/**
 * A client that publishes to a topic of its own every `everyMs` and hears it back: each round trip is recorded with
 * the time it was sent. A probe still unanswered counts as waiting until now, so a stall shows while it lasts.
 */
export async function startProbe(url, login, everyMs = 20) {
  // A broker reading a large access list answers nobody meanwhile (over 30 s at 200,000 lamps).
  const client = await mqtt.connectAsync(url, {
    ...login,
    reconnectPeriod: 0,
    connectTimeout: 180_000,
    clientId: `probe-${randomBytes(4).toString('hex')}`,
  });
  const topic = `bench/probe/${randomBytes(4).toString('hex')}`;
  await client.subscribeAsync(topic, { qos: 0 });
  const samples = [];
  let outstanding = null;
  let seq = 0;
  client.on('message', (_topic, payload) => {
    if (outstanding && Number(payload.toString()) === outstanding.seq) {
      samples.push({ at: outstanding.at, ms: Date.now() - outstanding.at });
      outstanding = null;
    }
  });
  const timer = setInterval(() => {
    if (outstanding) return;
    outstanding = { seq: ++seq, at: Date.now() };
    client.publish(topic, String(outstanding.seq), { qos: 0 });
  }, everyMs);
  const between = (from, to) => {
    const found = samples.filter((s) => s.at >= from && s.at < to);
    if (outstanding && outstanding.at >= from && outstanding.at < to) found.push({ at: outstanding.at, ms: Date.now() - outstanding.at });
    return found;
  };
  return {
    startedAt: Date.now(),
    /** Round trips (ms) of the probes sent in [from, to). */
    between,
    /** The longest round trip of the probes sent in [from, to). */
    maxBetween: (from, to) => Math.max(0, ...between(from, to).map((s) => s.ms)),
    /** Whether the client is still connected (a reload must not drop it). */
    get connected() {
      return client.connected;
    },
    async stop() {
      clearInterval(timer);
      await client.endAsync(true);
    },
  };
}
