import { randomBytes } from 'node:crypto';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { DeviceFamily, DeviceType, MqttChannel, MqttService, mqttTopics, mqttUsernames } from '@sc/contracts';
import { derivedMqttPassword, waitForMqttLogin, type MqttLogin } from '@sc/messaging';
import * as XLSX from '@e965/xlsx';
import { ApiClient, createTestDatabase, testMqttLogin, waitFor, workbookBuffer, type TestDatabase } from '@sc/testing';
import type { ImportResult, MqttCredentials } from '@sc/contracts';
import { BrokerAccessSync } from '../src/broker-access/broker-access-sync';
import { startTestGateway, type TestGateway } from './harness';

/**
 * The broker as `npm test` runs it: the shipped configuration (nobody anonymous, the platform's access list), its
 * accounts written by the platform's writer from this test's registry. Devices are played by plain MQTT clients.
 */
const MQTT_URL = process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
const ACCESS_DIR = process.env.MQTT_BROKER_ACCESS_DIR;
const SECRET = process.env.MQTT_CREDENTIAL_SECRET ?? '';
const QUIET_MS = 600;

describe('MQTT accounts: every device and service logs in, and a device speaks only for itself', () => {
  const p = `BA${randomBytes(3).toString('hex')}-`;
  const [A, B, C, S, G] = [`${p}A`, `${p}B`, `${p}C`, `${p}S`, `${p}GW`];
  const lamp = (code: string) => mqttUsernames.device(DeviceFamily.Lamp, code);
  const login = (username: string, generation = 1): MqttLogin => ({ username, password: derivedMqttPassword(SECRET, username, generation) });
  const worker = login(mqttUsernames.service(MqttService.WorkerLighting));
  /** Generations as the registry gave them (one sequence for every device: never used twice). */
  const generation: Record<string, number> = {};
  const device = (code: string) => login(lamp(code), generation[code]);
  let db: TestDatabase;
  let sync: BrokerAccessSync;
  const clients: MqttClient[] = [];

  async function connect(options: IClientOptions, url = MQTT_URL): Promise<MqttClient> {
    const client = await mqtt.connectAsync(url, { clientId: `ba-${randomBytes(4).toString('hex')}`, reconnectPeriod: 0, ...options });
    clients.push(client);
    return client;
  }

  /**
   * Everything `client` receives on `filters` from now on about this file's devices (other test files, running beside
   * this one on the same broker, have lamps of their own).
   */
  async function listen(client: MqttClient, filters: string[]): Promise<string[]> {
    const heard: string[] = [];
    client.on('message', (topic, payload) => {
      if (topic.split('/')[3]?.startsWith(p)) heard.push(`${topic} ${payload.toString()}`);
    });
    await client.subscribeAsync(filters, { qos: 1 });
    return heard;
  }

  const quiet = () => new Promise((r) => setTimeout(r, QUIET_MS));

  beforeAll(async () => {
    if (!ACCESS_DIR || !SECRET)
      throw new Error('This test needs the project broker with its access files: run it through `npm test` (scripts/broker.mjs).');
    db = await createTestDatabase('broker_access');
    for (const [type, code] of [
      [DeviceType.SingleLamp, A],
      [DeviceType.SingleLamp, B],
      [DeviceType.SingleLamp, C],
      [DeviceType.LightStrip, S],
    ] as const)
      await db.query(`INSERT INTO device (type, code, name) VALUES ($1, $2, $2)`, [type, code]);
    await db.query(`INSERT INTO lamp (device_id) SELECT id FROM device WHERE code IN ($1, $2)`, [A, B]);
    // C hangs off the lamp gateway G; A and B speak for themselves.
    await db.query(`INSERT INTO lamp_gateway (code, name) VALUES ($1, $1)`, [G]);
    await db.query(`INSERT INTO lamp (device_id, gateway_id) SELECT id, $1 FROM device WHERE code = $2`, [G, C]);
    // The strip light names a gateway nobody recorded: a light's gateway is what it reports, and creates no account.
    await db.query(`INSERT INTO strip_light (device_id, gateway_id) SELECT id, $1 FROM device WHERE code = $2`, [`${p}GHOST`, S]);
    for (const row of await db.query<{ code: string; generation: number }>(
      `SELECT code, mqtt_generation AS generation FROM device UNION ALL SELECT code, mqtt_generation FROM lamp_gateway`,
    ))
      generation[row.code] = row.generation;
    sync = new BrokerAccessSync(db.url, { dir: ACCESS_DIR, pidFile: process.env.MQTT_BROKER_PID_FILE, secret: SECRET });
    await sync.start();
    await waitForMqttLogin(MQTT_URL, device(A));
  }, 30_000);

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
  });

  afterAll(async () => {
    await sync?.stop();
    await db?.drop();
  });

  it('refuses anonymous clients, wrong passwords and unknown devices', async () => {
    await expect(connect({})).rejects.toThrow(/Not authorized|Bad user name or password/i);
    await expect(connect({ username: lamp(A), password: 'guess' })).rejects.toThrow(/Not authorized|Bad user name or password/i);
    await expect(connect(login(lamp(`${p}NOBODY`), 1))).rejects.toThrow(/Not authorized|Bad user name or password/i);
    await expect(connect(login(mqttUsernames.device(DeviceFamily.LampGateway, `${p}GHOST`), 1))).rejects.toThrow(
      /Not authorized|Bad user name or password/i,
    );
    // A's password is A's: it does not open B's account.
    await expect(connect({ username: lamp(B), password: device(A).password })).rejects.toThrow(/Not authorized|Bad user name or password/i);
  });

  it("a device reports on its own topics only: another device's state, ack or fault never reaches the platform", async () => {
    const platform = await connect(worker);
    const heard = await listen(
      platform,
      [MqttChannel.State, MqttChannel.Ack, MqttChannel.Event].map((c) => mqttTopics.all(DeviceFamily.Lamp, c)),
    );
    const a = await connect(device(A));
    await a.publishAsync(mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.State), '{"online":true,"bri":0}', { qos: 1 });
    await a.publishAsync(mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Ack), '{"id":"forged","ok":true}', { qos: 1 });
    await a.publishAsync(mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Event), '{"code":1,"active":true}', { qos: 1 });
    await a.publishAsync(mqttTopics.of(DeviceFamily.Strip, S, MqttChannel.State), '{"online":true}', { qos: 1 });
    await a.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Ack), '{"id":"own","ok":true}', { qos: 1 });
    await waitFor(() => heard.length > 0 || undefined);
    await quiet();
    expect(heard).toEqual([`${mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Ack)} {"id":"own","ok":true}`]);
  });

  it('a device reads only its own commands, and may not command another device', async () => {
    const a = await connect(device(A));
    const heardByA = await listen(a, [mqttTopics.all(DeviceFamily.Lamp, MqttChannel.Cmd), mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Cmd)]);
    const b = await connect(device(B));
    const heardByB = await listen(b, [mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Cmd)]);
    const platform = await connect(worker);
    await platform.publishAsync(mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Cmd), 'for B', { qos: 1 });
    await platform.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd), 'for A', { qos: 1 });
    await a.publishAsync(mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Cmd), 'from A', { qos: 1 });
    await waitFor(() => (heardByA.length > 0 && heardByB.length > 0) || undefined);
    await quiet();
    expect(heardByA).toEqual([`${mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd)} for A`]);
    expect(heardByB).toEqual([`${mqttTopics.of(DeviceFamily.Lamp, B, MqttChannel.Cmd)} for B`]);
  });

  it("on the devices' listener a device cannot push another off by connecting under its client id", async () => {
    const deviceUrl = process.env.MQTT_DEVICE_URL;
    if (!deviceUrl) throw new Error('This test needs the project broker: run it through `npm test` (scripts/broker.mjs).');
    const b = await connect({ ...device(B), clientId: B }, deviceUrl);
    let bDropped = false;
    b.on('close', () => (bDropped = true));
    // A takes B's client id: the broker names A's connection after A's account instead, and B stays on.
    const a = await connect({ ...device(A), clientId: B }, deviceUrl);
    await quiet();
    expect(bDropped).toBe(false);
    expect(a.connected && b.connected).toBe(true);
    // On the platform's listener (the services' own, not reachable by devices in an installation) it would have.
    const c = await connect({ ...device(A), clientId: `${p}same` });
    let cDropped = false;
    c.on('close', () => (cDropped = true));
    await connect({ ...device(B), clientId: `${p}same` });
    await waitFor(() => cDropped || undefined);
  });

  it('a lamp gateway speaks for the lights bound to it and for no other', async () => {
    const observer = await connect(testMqttLogin()!);
    const heard = await listen(observer, [mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State)]);
    const gateway = await connect(login(mqttUsernames.device(DeviceFamily.LampGateway, G), generation[G]));
    const commands = await listen(gateway, [
      mqttTopics.of(DeviceFamily.Lamp, C, MqttChannel.Cmd),
      mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd),
    ]);
    await gateway.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.State), 'A by G', { qos: 1 });
    await gateway.publishAsync(mqttTopics.of(DeviceFamily.Lamp, C, MqttChannel.State), 'C by G', { qos: 1 });
    const platform = await connect(worker);
    await platform.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd), 'for A', { qos: 1 });
    await platform.publishAsync(mqttTopics.of(DeviceFamily.Lamp, C, MqttChannel.Cmd), 'for C', { qos: 1 });
    await waitFor(() => (heard.length > 0 && commands.length > 0) || undefined);
    await quiet();
    expect(heard).toEqual([`${mqttTopics.of(DeviceFamily.Lamp, C, MqttChannel.State)} C by G`]);
    expect(commands).toEqual([`${mqttTopics.of(DeviceFamily.Lamp, C, MqttChannel.Cmd)} for C`]);
  });

  it('a platform service has its own rights only: the worker cannot pose as a device, the gateway reads nothing', async () => {
    const observer = await connect(testMqttLogin()!);
    const heard = await listen(observer, [mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State), mqttTopics.all(DeviceFamily.Lamp, MqttChannel.Cmd)]);
    const platform = await connect(worker);
    await platform.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.State), 'forged by the worker', { qos: 1 });
    const gateway = await connect(login(mqttUsernames.service(MqttService.Gateway)));
    const heardByGateway = await listen(gateway, [mqttTopics.all(DeviceFamily.Lamp, MqttChannel.State)]);
    await gateway.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.Cmd), 'from the gateway', { qos: 1 });
    const a = await connect(device(A));
    await a.publishAsync(mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.State), 'A itself', { qos: 1 });
    await waitFor(() => heard.length > 0 || undefined);
    await quiet();
    expect(heard).toEqual([`${mqttTopics.of(DeviceFamily.Lamp, A, MqttChannel.State)} A itself`]);
    expect(heardByGateway).toEqual([]);
  });

  it('rotating a credential or deleting a device drops its connection and refuses its old password', async () => {
    const a = await connect(device(A));
    const b = await connect(device(B));
    const closed = new Set<string>();
    a.on('close', () => closed.add('A'));
    b.on('close', () => closed.add('B'));

    const [rotated] = await db.query<{ generation: number }>(
      `UPDATE device SET mqtt_generation = nextval('mqtt_credential_seq') WHERE code = $1 RETURNING mqtt_generation AS generation`,
      [A],
    );
    await waitFor(() => closed.has('A') || undefined, 10_000);
    await expect(connect(device(A))).rejects.toThrow(/Not authorized|Bad user name or password/i);
    await connect(login(lamp(A), rotated.generation));

    await db.query(`DELETE FROM device WHERE code = $1`, [B]);
    await waitFor(() => closed.has('B') || undefined, 10_000);
    await expect(connect(device(B))).rejects.toThrow(/Not authorized|Bad user name or password/i);
    expect(b.connected).toBe(false);
    // B added again under the same code: a new generation, so B's old password stays refused.
    const [again] = await db.query<{ id: number; generation: number }>(
      `INSERT INTO device (type, code, name) VALUES ($1, $2, $2) RETURNING id, mqtt_generation AS generation`,
      [DeviceType.SingleLamp, B],
    );
    expect(again.generation).not.toBe(generation[B]);
    await waitForMqttLogin(MQTT_URL, login(lamp(B), again.generation));
    await expect(connect(device(B))).rejects.toThrow(/Not authorized|Bad user name or password/i);
  });
});

describe('MQTT logins handed out by the console: once on create, import and Edit MQTT', () => {
  const p = `BH${randomBytes(3).toString('hex')}-`;
  let gw: TestGateway;
  let sync: BrokerAccessSync;
  let admin: ApiClient;

  beforeAll(async () => {
    if (!ACCESS_DIR || !SECRET)
      throw new Error('This test needs the project broker with its access files: run it through `npm test` (scripts/broker.mjs).');
    gw = await startTestGateway({ mqttCredentialSecret: SECRET });
    admin = await gw.signedIn('admin');
    sync = new BrokerAccessSync(gw.db.url, { dir: ACCESS_DIR, pidFile: process.env.MQTT_BROKER_PID_FILE, secret: SECRET });
    await sync.start();
  }, 30_000);

  afterAll(async () => {
    await sync?.stop();
    await gw?.close();
  });

  it('a lamp added in the console logs in with the login in the answer; Edit MQTT replaces it and drops the old connection', async () => {
    const code = `${p}L1`;
    const added = await admin.post<{ id: number; mqtt: MqttCredentials }>('/api/light/lampAddOrEdit', { lampName: 'Handed out', clientId: code });
    expect(added.body.data.mqtt).toEqual({ username: `lamp/${code}`, password: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const first = added.body.data.mqtt;
    await waitForMqttLogin(MQTT_URL, first);
    const device = await mqtt.connectAsync(MQTT_URL, { ...first, clientId: `${code}-dev`, reconnectPeriod: 0 });
    const closed = new Promise<void>((resolve) => device.once('close', () => resolve()));
    // The answer is not kept: the operation log holds the request only, and no password.
    const logged = await gw.db.query<{ text: string }>(
      `SELECT coalesce(request_params::text, '') || coalesce(error_message, '') AS text FROM operation_log`,
    );
    expect(logged.some((row) => row.text.includes(first.password))).toBe(false);

    const rotated = await admin.post<{ mqtt: MqttCredentials }>('/api/light/lampEditMqtt', { id: added.body.data.id, clientId: code });
    const second = rotated.body.data.mqtt;
    expect(second.username).toBe(first.username);
    expect(second.password).not.toBe(first.password);
    await closed;
    await expect(mqtt.connectAsync(MQTT_URL, { ...first, reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad user name or password/i);
    await waitForMqttLogin(MQTT_URL, second);
  });

  it('strip lights, poles and lamp gateways get theirs on create, a new one on Edit MQTT; a gateway given a new code gets a new login', async () => {
    const strip = await admin.post<{ mqtt: MqttCredentials }>('/api/light/stripAddOrEdit', { lampName: 'Handed out strip', clientId: `${p}S1` });
    const [stripRow] = await gw.db.query<{ generation: number }>(`SELECT mqtt_generation AS generation FROM device WHERE code = $1`, [`${p}S1`]);
    expect(strip.body.data.mqtt).toEqual({ username: `strip/${p}S1`, password: derivedMqttPassword(SECRET, `strip/${p}S1`, stripRow.generation) });
    const pole = await admin.post<{ mqtt: MqttCredentials }>('/api/lamp/poleAddOrEdit', { name: 'Handed out pole', code: `${p}P1` });
    expect(pole.body.data.mqtt?.username).toBe(`pole/${p}P1`);
    const gateway = await admin.post<{ id: number; mqtt: MqttCredentials }>('/api/light/gatewayAddOrEdit', {
      gatewayId: `${p}G1`,
      name: 'Handed out gateway',
    });
    const first = gateway.body.data.mqtt;
    expect(first.username).toBe(`lamp-gateway/${p}G1`);
    await waitForMqttLogin(MQTT_URL, first);
    await waitForMqttLogin(MQTT_URL, strip.body.data.mqtt);

    const renamed = await admin.post<{ mqtt: MqttCredentials }>('/api/light/gatewayAddOrEdit', {
      id: gateway.body.data.id,
      gatewayId: `${p}G2`,
      name: 'Handed out gateway',
    });
    const second = renamed.body.data.mqtt;
    const [gatewayRow] = await gw.db.query<{ generation: number }>(`SELECT mqtt_generation AS generation FROM lamp_gateway WHERE code = $1`, [
      `${p}G2`,
    ]);
    expect(second).toEqual({ username: `lamp-gateway/${p}G2`, password: derivedMqttPassword(SECRET, `lamp-gateway/${p}G2`, gatewayRow.generation) });
    await waitForMqttLogin(MQTT_URL, second);
    await expect(mqtt.connectAsync(MQTT_URL, { ...first, reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad user name or password/i);
    // A plain edit of the same gateway hands out nothing.
    const edited = await admin.post<{ mqtt?: MqttCredentials }>('/api/light/gatewayAddOrEdit', {
      id: gateway.body.data.id,
      gatewayId: `${p}G2`,
      name: 'Renamed',
    });
    expect(edited.body.data.mqtt).toBeUndefined();

    // Edit MQTT under the same code (strip, pole, gateway): a new login, the old one refused and its connection dropped.
    const stripId = (await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = $1`, [`${p}S1`]))[0].id;
    const connected = await mqtt.connectAsync(MQTT_URL, { ...strip.body.data.mqtt, clientId: `${p}S1-dev`, reconnectPeriod: 0 });
    const dropped = new Promise<void>((resolve) => connected.once('close', () => resolve()));
    const renewed = await admin.post<{ mqtt: MqttCredentials }>('/api/mqtt/renew', { family: 'strip', id: stripId });
    expect(renewed.body.data.mqtt.username).toBe(`strip/${p}S1`);
    expect(renewed.body.data.mqtt.password).not.toBe(strip.body.data.mqtt.password);
    await dropped;
    await waitForMqttLogin(MQTT_URL, renewed.body.data.mqtt);
    await expect(mqtt.connectAsync(MQTT_URL, { ...strip.body.data.mqtt, reconnectPeriod: 0 })).rejects.toThrow(
      /Not authorized|Bad user name or password/i,
    );
    const gatewayRenewed = await admin.post<{ mqtt: MqttCredentials }>('/api/mqtt/renew', { family: 'lamp-gateway', id: gateway.body.data.id });
    expect(gatewayRenewed.body.data.mqtt.username).toBe(`lamp-gateway/${p}G2`);
    await waitForMqttLogin(MQTT_URL, gatewayRenewed.body.data.mqtt);
    await expect(mqtt.connectAsync(MQTT_URL, { ...second, reconnectPeriod: 0 })).rejects.toThrow(/Not authorized|Bad user name or password/i);
    const poleId = (await gw.db.query<{ id: number }>(`SELECT id FROM device WHERE code = $1`, [`${p}P1`]))[0].id;
    const poleRenewed = await admin.post<{ mqtt: MqttCredentials }>('/api/mqtt/renew', { family: 'pole', id: poleId });
    expect(poleRenewed.body.data.mqtt.username).toBe(`pole/${p}P1`);
    // Another family's id, an unknown family and a missing id change nothing.
    const before = await gw.db.query(`SELECT id, mqtt_generation FROM device WHERE id = ANY($1) ORDER BY id`, [[stripId, poleId]]);
    expect((await admin.post('/api/mqtt/renew', { family: 'lamp', id: stripId })).body.code).toBe(404);
    expect((await admin.post('/api/mqtt/renew', { family: 'nowhere', id: stripId })).body.code).toBe(400);
    expect((await admin.post('/api/mqtt/renew', { family: 'strip' })).body.code).toBe(400);
    expect(await gw.db.query(`SELECT id, mqtt_generation FROM device WHERE id = ANY($1) ORDER BY id`, [[stripId, poleId]])).toEqual(before);
  });

  it("an import's added devices' logins download once, as a workbook, for the user who imported them", async () => {
    const [group] = await gw.db.query<{ id: number }>(`INSERT INTO device_group (type, name) VALUES (1, $1) RETURNING id`, [`${p}import`]);
    const header = ['Lamp name', 'Client ID'];
    const data = new FormData();
    data.append('groupId', String(group.id));
    data.append('file', new Blob([workbookBuffer([header, ['Imported 1', `${p}I1`], ['Imported 2', `${p}I2`]])]), 'lamps.xlsx');
    const imported = await new ApiClient(gw.uploadUrl, 'en-US').as(admin.token).post<ImportResult>('/api/light/lightImport', data);
    expect(imported.body.data).toMatchObject({ added: 2, credentialsId: expect.any(String) });
    const url = `${gw.baseUrl}/api/imports/credentials?id=${imported.body.data.credentialsId}`;
    const asAdmin = { headers: { Authorization: `Bearer ${admin.token}` } };

    const editor = await gw.signedIn('editor');
    expect((await fetch(url, { headers: { Authorization: `Bearer ${editor.token}` } })).status).toBe(404);
    const answer = await fetch(url, asAdmin);
    expect(answer.status).toBe(200);
    const book = XLSX.read(Buffer.from(await answer.arrayBuffer()), { type: 'buffer' });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    const issued = await gw.db.query<{ code: string; generation: number }>(
      `SELECT code, mqtt_generation AS generation FROM device WHERE code = ANY($1::text[]) ORDER BY code`,
      [[`${p}I1`, `${p}I2`]],
    );
    expect(rows).toEqual([
      ['Code', 'User name', 'Password'],
      ...issued.map((r) => [r.code, `lamp/${r.code}`, derivedMqttPassword(SECRET, `lamp/${r.code}`, r.generation)]),
    ]);
    await waitForMqttLogin(MQTT_URL, { username: `lamp/${p}I2`, password: String(rows[2][2]) });
    // Once: the offer ends with the download.
    const again = await fetch(url, asAdmin);
    expect(again.status).toBe(404);
    expect(((await again.json()) as { message: string }).message).toMatch(/handed out once/);
  });
});
