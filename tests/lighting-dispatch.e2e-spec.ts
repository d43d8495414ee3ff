// The command ledger end to end on the real services: gateway (API, outbox relay, socket forwarder) and the lighting
// worker as their own processes, 1,000 simulated lamps on the real MQTT broker, PostgreSQL and Redis.
import mqtt, { type MqttClient } from 'mqtt';
import { DispatchItemState, DispatchStatus, LampStatus, type DispatchDetail } from '@sc/contracts';
import type { ApiClient } from '@sc/testing';
import { waitFor, testMqttLogin } from '@sc/testing';
import type { Fleet } from '../apps/device-sim/src';
import { startGatewayProcess, type RunningGateway } from './support/gateway-process';
import {
  MQTT_URL,
  connectSocket,
  control,
  fleetFor,
  insertLamps,
  itemStates,
  recordSocket,
  signIn,
  startWorkerProcess,
  uniqueCodePrefix,
  waitForDispatchDone,
  type InsertedLamps,
  type RealtimeClient,
  type RunningWorker,
  type SocketLog,
} from './support/pipeline';

const LAMPS = 1000;

describe('lighting dispatch pipeline (1,000 simulated lamps)', () => {
  let gw: RunningGateway;
  let worker: RunningWorker;
  let fleet: Fleet;
  let lamps: InsertedLamps;
  let admin: ApiClient;
  let socket: RealtimeClient;
  let events: SocketLog;
  const prefix = uniqueCodePrefix('D');

  beforeAll(async () => {
    gw = await startGatewayProcess();
    // Lamps of this file only, in a region of their own: the 300 demo lamps of the database have no simulator here.
    lamps = await insertLamps(gw.db, LAMPS, prefix, `Dispatch test ${prefix}`);
    // Publishing in small chunks spreads a dispatch over many round trips, so the kill -9 below lands mid-way.
    // The worker first: shared subscriptions get no retained messages, so states published before it subscribed are not seen.
    [worker, admin] = await Promise.all([startWorkerProcess(gw, { PUBLISH_CHUNK: '25' }), signIn(gw)]);
    fleet = await fleetFor(lamps.codes);
    socket = await connectSocket(gw, admin.token);
    events = recordSocket(socket);
    // Every lamp has reported itself online before the first command.
    await waitFor(async () => {
      const [{ n }] = await gw.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1 AND l.network_status = 1`,
        [`${prefix}%`],
      );
      if (n !== LAMPS) throw new Error(`${n} of ${LAMPS} lamps online; worker said: ${worker.output().slice(-2000)}`);
      return true;
    }, 20_000);
  }, 90_000);

  afterAll(async () => {
    socket?.disconnect();
    await fleet?.stop({ clearRetained: true });
    await worker?.stop();
    await gw?.stop();
  });

  function appliedByCode(): Map<string, number> {
    return new Map(lamps.codes.map((code) => [code, fleet.lamp(code)!.applied]));
  }

  /** The lamp rows of this file, by code. */
  async function lampRows(): Promise<Map<string, { status: number; switch_state: number; bri: number }>> {
    const rows = await gw.db.query<{ code: string; status: number; switch_state: number; bri: number }>(
      `SELECT d.code, l.status, l.switch_state, l.bri FROM lamp l JOIN device d ON d.id = l.device_id WHERE d.code LIKE $1`,
      [`${prefix}%`],
    );
    return new Map(rows.map((r) => [r.code, r]));
  }

  function itemsByCode(detail: DispatchDetail) {
    return new Map(detail.items.map((item) => [item.deviceCode, item]));
  }

  it('dims every lamp of a region: every row terminal, counts match what the lamps report, rows and socket agree', async () => {
    const started = Date.now();
    const before = appliedByCode();
    const dispatchId = await control(admin, { regionId: lamps.regionId!, action: 'dim', level: 60 });
    const detail = await waitForDispatchDone(admin, dispatchId, 30_000);
    const elapsed = Date.now() - started;
    process.stdout.write(`lighting e2e: dim 1,000 lamps by region, all rows terminal in ${elapsed} ms\n`);

    expect(detail.total).toBe(LAMPS);
    expect(detail.items).toHaveLength(LAMPS);
    expect(
      detail.items.every((item) => [DispatchItemState.Delivered, DispatchItemState.Failed, DispatchItemState.Expired].includes(item.state)),
    ).toBe(true);
    expect(detail.items.every((item) => item.deviceCode.startsWith(prefix))).toBe(true);
    // This file's own database and lamps, not the demo installation (\`npm start\`) nor its 300 demo lamps.
    expect(gw.env.DATABASE_URL).not.toMatch(/\/smart_city$/);
    expect(await gw.db.query(`SELECT 1 FROM dispatch_item i JOIN device d ON d.id = i.device_id WHERE d.code NOT LIKE $1`, [`${prefix}%`])).toEqual(
      [],
    );

    // Delivered = lamps whose simulated state shows the command (applied once, at level 60 and on).
    const items = itemsByCode(detail);
    const showing = lamps.codes.filter((code) => {
      const lamp = fleet.lamp(code)!;
      return lamp.on && lamp.level === 60 && lamp.applied === before.get(code)! + 1;
    });
    expect(detail.counts.delivered).toBe(showing.length);
    expect(showing.every((code) => items.get(code)!.state === DispatchItemState.Delivered)).toBe(true);
    expect(detail.counts).toEqual({ queued: 0, sent: 0, delivered: LAMPS, failed: 0, expired: 0 });
    expect(detail.status).toBe(DispatchStatus.AllSuccessful);

    // The lamp rows say the same: switched on at 60 % and 'distribution succeeded'.
    const rows = await lampRows();
    expect([...rows.values()].filter((r) => r.switch_state === 1 && r.bri === 60 && r.status === LampStatus.DistributionSucceeded)).toHaveLength(
      LAMPS,
    );

    // The admin socket was told: the last progress event carries the final counts.
    const last = await waitFor(() => {
      const mine = events.DispatchProgress.filter((e) => e.event.dispatchId === dispatchId);
      const final = mine.at(-1)?.event;
      return final && final.status !== DispatchStatus.ToBeSent ? final : undefined;
    }, 3000);
    expect(last.counts).toEqual(detail.counts);
    expect(
      events.DeviceStateChanged.some((e) => e.event.deviceCode.startsWith(prefix) && e.event.changed.status === LampStatus.DistributionSucceeded),
    ).toBe(true);
  }, 60_000);

  it('survives kill -9 of the lighting worker mid-dispatch: every row terminal, no lamp applies a command twice', async () => {
    const before = appliedByCode();
    const statsBefore = fleet.stats;
    const dispatchId = await control(admin, { ids: lamps.ids, action: 'off' });

    // Kill as soon as some rows have left 'queued' but not all of them.
    let seen: Record<string, number> = {};
    await waitFor(
      async () => {
        seen = await itemStates(gw.db, dispatchId);
        return (seen.queued ?? 0) < LAMPS ? true : undefined;
      },
      15_000,
      5,
    );
    await worker.stop('SIGKILL');
    const atKill = await itemStates(gw.db, dispatchId);
    process.stdout.write(`lighting e2e: worker killed with rows ${JSON.stringify(atKill)}\n`);
    expect(atKill.queued ?? 0).toBeGreaterThan(0);

    const restarted = Date.now();
    worker = await startWorkerProcess(gw, { PUBLISH_CHUNK: '25' });
    const detail = await waitForDispatchDone(admin, dispatchId, 45_000);
    process.stdout.write(`lighting e2e: after the restart all rows terminal in ${Date.now() - restarted} ms\n`);

    expect(detail.counts).toEqual({ queued: 0, sent: 0, delivered: LAMPS, failed: 0, expired: 0 });
    expect(detail.status).toBe(DispatchStatus.AllSuccessful);
    // Each lamp got one command id in this dispatch and applied it exactly once, re-sends included.
    const appliedTwice = lamps.codes.filter((code) => fleet.lamp(code)!.applied - before.get(code)! !== 1);
    expect(appliedTwice).toEqual([]);
    const stats = fleet.stats;
    expect(stats.commandsApplied - statsBefore.commandsApplied).toBe(LAMPS);
    process.stdout.write(`lighting e2e: redelivered command ids ignored by the lamps: ${stats.duplicatesIgnored - statsBefore.duplicatesIgnored}\n`);
    expect(lamps.codes.every((code) => !fleet.lamp(code)!.on)).toBe(true);
    const rows = await lampRows();
    expect([...rows.values()].filter((r) => r.switch_state === 0 && r.status === LampStatus.DistributionSucceeded)).toHaveLength(LAMPS);
  }, 90_000);

  it('drops malformed payloads and unknown device codes during a dispatch, counting them, without disturbing it', async () => {
    const junk: MqttClient = await mqtt.connectAsync(MQTT_URL, { clientId: `e2e-junk-${prefix}`, ...testMqttLogin() });
    const healthBefore = (await worker.health()).counters;
    try {
      const dispatchId = await control(admin, { ids: lamps.ids, action: 'on' });
      const malformed = ['not json', '{"online":"yes"}', '[]', '{"id":42,"ok":"maybe"}', ''.padEnd(300, '{')];
      const unknownCodes = Array.from({ length: 20 }, (_, i) => `${prefix}GHOST-${i}`);
      const publishes: Promise<unknown>[] = [];
      for (let i = 0; i < 100; i++) {
        const code = lamps.codes[i * 10];
        const body = malformed[i % malformed.length];
        publishes.push(junk.publishAsync(`city/v1/lamp/${code}/${['state', 'telemetry', 'event', 'ack'][i % 4]}`, body, { qos: 1 }));
      }
      for (let i = 0; i < 100; i++) {
        const code = unknownCodes[i % unknownCodes.length];
        publishes.push(junk.publishAsync(`city/v1/lamp/${code}/state`, JSON.stringify({ online: true, on: true, level: 100 }), { qos: 1 }));
        publishes.push(
          junk.publishAsync(`city/v1/lamp/${code}/ack`, JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', ok: true }), { qos: 1 }),
        );
      }
      await Promise.all(publishes);

      const detail = await waitForDispatchDone(admin, dispatchId, 30_000);
      expect(detail.counts).toEqual({ queued: 0, sent: 0, delivered: LAMPS, failed: 0, expired: 0 });
      expect(lamps.codes.every((code) => fleet.lamp(code)!.on)).toBe(true);

      // Counted per reason (other test files' traffic on the broker may add to them, never take away).
      const counters = await waitFor(async () => {
        const c = (await worker.health()).counters;
        return c.rejected.malformed - healthBefore.rejected.malformed >= 100 &&
          c.rejected['unknown-device'] - healthBefore.rejected['unknown-device'] >= 200
          ? c
          : undefined;
      }, 5000);
      expect(counters.writeErrors).toBe(healthBefore.writeErrors);
      // Logged once per device and reason, not once per message.
      for (const code of unknownCodes) {
        const lines = worker
          .output()
          .split('\n')
          .filter((line) => line.includes('"unknown-device"') && line.includes(`"${code}"`));
        expect(lines).toHaveLength(1);
      }
      // No ghost lamp was registered by the traffic.
      expect(await gw.db.query(`SELECT 1 FROM device WHERE code LIKE $1`, [`${prefix}GHOST-%`])).toEqual([]);
    } finally {
      await junk.endAsync();
    }
  }, 60_000);
});
