// How soon an ended session stops working, on the replica that ended it and on another one: two gateways on one
// database (each with its in-process session cache, kept true by PostgreSQL LISTEN/NOTIFY), a visitor signed in on
// both, then logged out on one, or disabled there by an administrator. Measured: until the other replica's REST API
// answers code -1, and until its socket receives SessionEnded.
//
//   npx nest build gateway && npm run bench:session-revocation
//
// It creates its own database and Redis prefix, starts both gateways on free loopback ports and removes everything
// at the end. BENCH_ROUNDS (default 20) rounds of each case. Only loopback addresses are ever contacted.
// See docs/security.md.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { io } from 'socket.io-client';
import { GATEWAY_NODE_FLAGS } from '../scripts/lib.mjs';
import { PASSWORD, fmt, freePort, log, percentile } from './support/platform.mjs';
import * as page from './support/page-load.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const GIVE_UP_MS = 10_000;

const call = async (baseUrl, path, token, body) => {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return res.json();
};

const signIn = async (baseUrl, username) => {
  const answer = await call(baseUrl, '/user/login', undefined, { username, password: PASSWORD });
  if (answer.code !== 200) throw new Error(`${username} could not sign in: ${answer.message}`);
  return answer.data.token;
};

/** A socket of the token on a gateway; answers when it is connected, with a promise of its SessionEnded. */
function openSocket(baseUrl, token) {
  return new Promise((resolve, reject) => {
    const socket = io(baseUrl, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false });
    const ended = new Promise((done) => {
      socket.on('SessionEnded', () => done(performance.now()));
      socket.on('disconnect', () => done(performance.now()));
    });
    socket.once('connect', () => resolve({ socket, ended }));
    socket.once('connect_error', reject);
  });
}

/** Milliseconds from `since` until the token's REST call answers code -1 on the gateway. */
async function untilRefused(baseUrl, token, since) {
  for (;;) {
    const answer = await call(baseUrl, '/user/info', token);
    if (answer.code === -1) return performance.now() - since;
    if (performance.now() - since > GIVE_UP_MS) return Infinity;
  }
}

const summary = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `${fmt(sorted[0], 1)} / ${fmt(percentile(sorted, 50), 1)} / ${fmt(percentile(sorted, 95), 1)} / ${fmt(sorted.at(-1), 1)}`;
};

await page.runPageBench({ dbName: 'sc_bench_sessions', redisPrefix: `bench:${randomBytes(4).toString('hex')}:` }, async (bench) => {
  await bench.prepare(async () => undefined);
  await bench.serve();
  const a = bench.baseUrl;
  const [port, uploadPort] = [await freePort(), await freePort()];
  const b = `http://127.0.0.1:${port}`;
  const replica = bench.spawn('gateway-b', [...GATEWAY_NODE_FLAGS, page.GATEWAY, 'serve'], {
    HOST: '127.0.0.1',
    PORT: String(port),
    UPLOAD_PORT: String(uploadPort),
    UPLOAD_DIR: bench.uploadDir,
    WEB_DIST: `${bench.uploadDir}/no-web`,
  });
  try {
    await bench.waitFor('gateway-b', replica, async () => (await fetch(`${b}/api/health`)).ok);
    log(`  second replica serving on ${b}`);
    const admin = bench.token;
    const users = await call(a, '/user/userPage', admin, { pageNum: 1, pageSize: 10, username: 'visitor' });
    const visitorId = users.data.list.find((u) => u.username === 'visitor').id;

    const results = { logoutRest: [], logoutSocket: [], disableRest: [], disableSocket: [], sameReplica: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // Log-out on A; the session is cached on B (it has just answered there).
      let token = await signIn(a, 'visitor');
      let { socket, ended } = await openSocket(b, token);
      if ((await call(b, '/user/info', token)).code !== 200) throw new Error('the session does not work on the second replica');
      let since = performance.now();
      await call(a, '/user/logout', token);
      results.logoutRest.push(await untilRefused(b, token, since));
      results.logoutSocket.push(Math.max(0, (await Promise.race([ended, sleep(GIVE_UP_MS).then(() => Infinity)])) - since));
      socket.close();

      // Disabled by an administrator on A.
      token = await signIn(a, 'visitor');
      ({ socket, ended } = await openSocket(b, token));
      await call(b, '/user/info', token);
      await call(a, '/user/info', token);
      since = performance.now();
      const disabled = await call(a, '/user/updateUser', admin, { id: visitorId, enabled: false });
      if (disabled.code !== 200) throw new Error(`could not disable the visitor: ${disabled.message}`);
      const [rest, sameReplica] = await Promise.all([untilRefused(b, token, since), untilRefused(a, token, since)]);
      results.disableRest.push(rest);
      results.sameReplica.push(sameReplica);
      results.disableSocket.push(Math.max(0, (await Promise.race([ended, sleep(GIVE_UP_MS).then(() => Infinity)])) - since));
      socket.close();
      await call(a, '/user/updateUser', admin, { id: visitorId, enabled: true });
    }

    log('');
    log(`| Revocation (${ROUNDS} rounds), ms from the call that ends it | min / median / p95 / max |`);
    log('| --- | ---: |');
    log(`| log-out on replica A → REST refused on replica B | ${summary(results.logoutRest)} |`);
    log(`| log-out on replica A → socket on replica B told and closed | ${summary(results.logoutSocket)} |`);
    log(`| user disabled on replica A → REST refused on replica A | ${summary(results.sameReplica)} |`);
    log(`| user disabled on replica A → REST refused on replica B | ${summary(results.disableRest)} |`);
    log(`| user disabled on replica A → socket on replica B told and closed | ${summary(results.disableSocket)} |`);
    const worst = Math.max(...Object.values(results).flat());
    if (!Number.isFinite(worst)) {
      log(`A session still worked after ${GIVE_UP_MS} ms`);
      process.exitCode = 1;
    }
  } finally {
    await bench.stop('gateway-b');
  }
});
