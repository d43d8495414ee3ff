import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DeviceFamily, DeviceType, MqttChannel, MqttService, mqttTopics, mqttUsernames } from '@sc/contracts';
import { derivedMqttPassword, filterCovers, type EmqxAclEntry } from '@sc/messaging';
import { createTestDatabase, waitFor, type TestDatabase } from '@sc/testing';
import { BrokerAccessSync } from '../src/broker-access/broker-access-sync';
import { BrokerHook, type HookAnswer } from '../src/broker-access/broker-hook';
import { EmqxSessions } from '../src/broker-access/emqx-sessions';

/**
 * The broker hook that an EMQX cluster asks at each login (deploy/emqx/emqx.conf), over HTTP as EMQX asks it, on this
 * test's registry in PostgreSQL. The same attempts as the Mosquitto test (broker-access.int-spec.ts) get the same
 * answers; EMQX's REST API, which the platform calls to end a revoked device's session, is played by a local server
 * that records the calls.
 */
describe('MQTT accounts through the broker hook (EMQX): the same accounts and rules as the Mosquitto files', () => {
  const SECRET = randomBytes(32).toString('hex');
  const TOKEN = randomBytes(24).toString('hex');
  const p = `BH${randomBytes(3).toString('hex')}-`;
  const [A, B, C, G] = [`${p}A`, `${p}B`, `${p}C`, `${p}GW`];
  const lamp = (code: string) => mqttUsernames.device(DeviceFamily.Lamp, code);
  const generation: Record<string, number> = {};
  let db: TestDatabase;
  let sync: BrokerAccessSync;
  let hook: BrokerHook;
  let sessions: EmqxSessions;
  let url: string;
  let emqx: Server;
  const kicked: string[] = [];
  const emqxAuthorization: string[] = [];

  async function ask(body: unknown, token = TOKEN): Promise<{ status: number; answer: HookAnswer }> {
    const response = await fetch(`${url}/mqtt/authenticate`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    return { status: response.status, answer: (await response.json()) as HookAnswer };
  }

  const login = (username: string, gen: number, clientid = username.slice(username.indexOf('/') + 1)) =>
    ask({ username, password: derivedMqttPassword(SECRET, username, gen), clientid });

  /** EMQX's reading of an ACL: the first entry whose action and topic match decides. */
  function emqxAllows(acl: EmqxAclEntry[] | undefined, action: 'publish' | 'subscribe', topic: string): boolean {
    const entry = (acl ?? []).find((e) => (e.action === action || e.action === 'all') && filterCovers(e.topic, topic));
    return entry?.permission === 'allow';
  }

  beforeAll(async () => {
    db = await createTestDatabase('broker_hook');
    for (const code of [A, B, C]) await db.query(`INSERT INTO device (type, code, name) VALUES ($1, $2, $2)`, [DeviceType.SingleLamp, code]);
    await db.query(`INSERT INTO lamp (device_id) SELECT id FROM device WHERE code IN ($1, $2)`, [A, B]);
    await db.query(`INSERT INTO lamp_gateway (code, name) VALUES ($1, $1)`, [G]);
    await db.query(`INSERT INTO lamp (device_id, gateway_id) SELECT id, $1 FROM device WHERE code = $2`, [G, C]);
    for (const row of await db.query<{ code: string; generation: number }>(
      `SELECT code, mqtt_generation AS generation FROM device UNION ALL SELECT code, mqtt_generation FROM lamp_gateway`,
    ))
      generation[row.code] = row.generation;

    emqx = createServer((req, res) => {
      emqxAuthorization.push(req.headers.authorization ?? '');
      const match = /^\/api\/v5\/clients\/(.+)$/.exec(req.url ?? '');
      if (req.method === 'DELETE' && match) kicked.push(decodeURIComponent(match[1]));
      res.writeHead(match ? 204 : 404).end();
    });
    await new Promise<void>((resolve) => emqx.listen(0, '127.0.0.1', resolve));
    sessions = new EmqxSessions({ url: `http://127.0.0.1:${(emqx.address() as AddressInfo).port}`, key: 'platform', secret: 'api-secret' });
    // No access directory: the accounts are only kept for the hook.
    sync = new BrokerAccessSync(db.url, { secret: SECRET, onRevoked: (names) => sessions.revoke(names) });
    await sync.start();
    hook = new BrokerHook(sync, { secret: SECRET, token: TOKEN });
    url = `http://127.0.0.1:${await hook.listen(0, '127.0.0.1')}`;
  }, 30_000);

  afterAll(async () => {
    sessions?.stop();
    await hook?.stop();
    await sync?.stop();
    await new Promise((resolve) => emqx?.close(resolve));
    await db?.drop();
  });

  it('answers only the broker: no token or a wrong one is 401, a body that is not JSON 400', async () => {
    expect((await ask({ username: lamp(A) }, 'wrong-token-of-the-same-size-000000000000')).status).toBe(401);
    const none = await fetch(`${url}/mqtt/authenticate`, { method: 'POST', body: '{}' });
    expect(none.status).toBe(401);
    const broken = await fetch(`${url}/mqtt/authenticate`, { method: 'POST', headers: { Authorization: `Bearer ${TOKEN}` }, body: '{' });
    expect(broken.status).toBe(400);
    const huge = await fetch(`${url}/mqtt/authenticate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ username: 'x'.repeat(10_000) }),
    }).catch(() => null);
    expect(huge === null || huge.status === 400).toBe(true);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('refuses anonymous clients, wrong or borrowed passwords, and accounts that are not in the registry', async () => {
    expect((await ask({ username: '', password: '', clientid: 'x' })).answer.result).toBe('deny');
    expect((await ask({ clientid: A })).answer.result).toBe('deny');
    expect((await ask({ username: lamp(A), password: 'guess', clientid: A })).answer.result).toBe('deny');
    // B's password for A's account.
    expect((await ask({ username: lamp(A), password: derivedMqttPassword(SECRET, lamp(B), generation[B]), clientid: A })).answer.result).toBe('deny');
    expect((await login(lamp(`${p}NOBODY`), 1)).answer.result).toBe('deny');
    expect((await login(lamp(A), generation[A] + 1000)).answer.result).toBe('deny');
  });

  it("refuses a device under another device's client id (no session takeover), and takes it under its own", async () => {
    expect((await login(lamp(A), generation[A], B)).answer.result).toBe('deny');
    const own = await login(lamp(A), generation[A]);
    expect(own.status).toBe(200);
    expect(own.answer).toMatchObject({ result: 'allow', is_superuser: false });
  });

  it('hands a device the rules of its own topics: it cannot report for B, forge B’s ack, read B’s commands or command B', async () => {
    const { acl } = (await login(lamp(A), generation[A])).answer;
    const topic = (code: string, channel: MqttChannel) => mqttTopics.of(DeviceFamily.Lamp, code, channel);
    expect(emqxAllows(acl, 'publish', topic(A, MqttChannel.State))).toBe(true);
    expect(emqxAllows(acl, 'subscribe', topic(A, MqttChannel.Cmd))).toBe(true);
    for (const channel of [MqttChannel.State, MqttChannel.Ack, MqttChannel.Event]) expect(emqxAllows(acl, 'publish', topic(B, channel))).toBe(false);
    expect(emqxAllows(acl, 'subscribe', mqttTopics.all(DeviceFamily.Lamp, MqttChannel.Cmd))).toBe(false);
    expect(emqxAllows(acl, 'subscribe', topic(B, MqttChannel.Cmd))).toBe(false);
    expect(emqxAllows(acl, 'publish', topic(B, MqttChannel.Cmd))).toBe(false);
    expect(emqxAllows(acl, 'publish', mqttTopics.of(DeviceFamily.Strip, A, MqttChannel.State))).toBe(false);
  });

  it('lets a lamp gateway speak for its own lamps only, and each service do exactly its work', async () => {
    const gateway = (await login(mqttUsernames.device(DeviceFamily.LampGateway, G), generation[G])).answer;
    expect(gateway.result).toBe('allow');
    expect(emqxAllows(gateway.acl, 'publish', mqttTopics.of(DeviceFamily.Lamp, C, MqttChannel.State))).toBe(true);
    expect(emqxAllows(gateway.acl, 'publish', mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.State))).toBe(false);

    const worker = await login(mqttUsernames.service(MqttService.WorkerLighting), 1, 'worker-lighting-intake-1a2b');
    expect(worker.answer.result).toBe('allow');
    expect(emqxAllows(worker.answer.acl, 'subscribe', mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State))).toBe(true);
    expect(emqxAllows(worker.answer.acl, 'publish', mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd))).toBe(true);
    expect(emqxAllows(worker.answer.acl, 'publish', mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.State))).toBe(false);
    const gw = await login(mqttUsernames.service(MqttService.Gateway), 1, 'sc-1a2b');
    expect(emqxAllows(gw.answer.acl, 'subscribe', mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State))).toBe(false);
    expect(emqxAllows(gw.answer.acl, 'publish', mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd))).toBe(false);
  });

  it('follows the registry: a rotated password and a deleted device are refused, and EMQX is asked to end their sessions', async () => {
    const [rotated] = await db.query<{ generation: number }>(
      `UPDATE device SET mqtt_generation = nextval('mqtt_credential_seq') WHERE code = $1 RETURNING mqtt_generation AS generation`,
      [A],
    );
    await db.query(`DELETE FROM device WHERE code = $1`, [B]);
    await waitFor(async () => ((await login(lamp(B), generation[B])).answer.result === 'deny' ? true : undefined), 10_000);
    expect((await login(lamp(A), generation[A])).answer.result).toBe('deny');
    expect((await login(lamp(A), rotated.generation)).answer.result).toBe('allow');
    await sessions.idle();
    expect(kicked.sort()).toEqual([A, B].sort());
    expect(new Set(emqxAuthorization)).toEqual(new Set([`Basic ${Buffer.from('platform:api-secret').toString('base64')}`]));
    // A device added later logs in as soon as the registry has it.
    const [added] = await db.query<{ generation: number }>(
      `INSERT INTO device (type, code, name) VALUES ($1, $2, $2) RETURNING mqtt_generation AS generation`,
      [DeviceType.SingleLamp, `${p}D`],
    );
    await waitFor(async () => ((await login(lamp(`${p}D`), added.generation)).answer.result === 'allow' ? true : undefined), 10_000);
  });
});
