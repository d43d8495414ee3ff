import { Button, DeviceFamily, DeviceType, MqttService, DispatchStatus, QueueName, defineFamily, type JobName } from '@sc/contracts';
import type { AnyFamilyHandler, DeviceWorker } from '@sc/device-runtime';
import { waitFor } from '@sc/testing';
import { PlayedDevices, RuntimeHarness, THERMO_FAMILY, THERMO_TABLE_SQL, Thermo, thermoHandler } from './runtime-harness';

/** A second family declared only here: sirens, on a queue of their own that no built family uses, served by another worker. */
const SIREN_FAMILY = defineFamily<{ status: number; networkStatus: number }>()({
  family: DeviceFamily.Alarm,
  title: 'Test siren',
  deviceType: DeviceType.OneKeyAlarm,
  table: 'test_siren',
  worker: MqttService.WorkerLighting,
  queue: 'test-siren-tasks' as QueueName,
  job: 'distribute-test-siren-dispatch' as JobName,
  actions: { sound: Button.Edit },
  eventRoles: [],
  liveFields: ['status', 'networkStatus'],
  reports: {},
  commands: { sound: { description: 'Sound once.', params: { type: 'object', additionalProperties: false } } },
  heartbeatSeconds: 60,
});

const sirenHandler: AnyFamilyHandler = {
  declaration: SIREN_FAMILY,
  columns: { status: { column: 'status', type: 'smallint' }, networkStatus: { column: 'network_status', type: 'smallint' } },
  reduce: (s: { status: number; networkStatus: number }, event: { kind: string; delivered?: boolean }) => {
    if (event.kind === 'sending') return { ...s, status: Thermo.Distributing };
    if (event.kind === 'answered') return { ...s, status: event.delivered ? Thermo.Succeeded : Thermo.Failed };
    return s;
  },
  command: (action: string) => (action === 'sound' ? { type: 'sound', params: {} } : null),
};

const SIREN_TABLE_SQL = `CREATE TABLE test_siren (
  device_id int PRIMARY KEY REFERENCES device(id) ON DELETE CASCADE,
  status smallint NOT NULL DEFAULT 0,
  network_status smallint NOT NULL DEFAULT 0
)`;

/**
 * Workers serving different families share one database and its command ledger: each sends, re-sends and expires
 * only the rows of the families it serves. A worker that took another family's rows could not publish them (it has
 * no handler for them) nor tell their devices (it has no store for them).
 */
describe('device runtime: workers of different families on one command ledger', () => {
  const h = new RuntimeHarness();
  let thermoWorker: DeviceWorker;
  let thermos: Map<string, number>;
  let sirens: Map<string, number>;
  let playedThermos: PlayedDevices;
  let playedSirens: PlayedDevices;

  const items = (dispatchId: string) =>
    h.db.query<{ device_id: number; code: string; state: string; attempts: number }>(
      `SELECT i.device_id, d.code, i.state, i.attempts FROM dispatch_item i JOIN device d ON d.id = i.device_id WHERE i.dispatch_id = $1 ORDER BY d.code`,
      [dispatchId],
    );
  const sirenStatus = async (id: number) =>
    (await h.db.query<{ status: number }>(`SELECT status FROM test_siren WHERE device_id = $1`, [id]))[0].status;

  beforeAll(async () => {
    await h.setUp('rt_shared', [THERMO_TABLE_SQL, SIREN_TABLE_SQL]);
    thermos = await h.addDevices(THERMO_FAMILY, 2, 'T');
    sirens = await h.addDevices(SIREN_FAMILY, 6, 'S');
    playedThermos = await PlayedDevices.start('radar');
    playedSirens = await PlayedDevices.start('alarm');
    for (const code of thermos.keys()) playedThermos.behaviour.set(code, 'ok');
    // Rows queued for more than 300 ms are the tracker's to send (a lost job): the sweep runs every 2 s. Its tracker
    // passes far more often than the sirens' worker's, so rows it must not take would be taken by it first.
    thermoWorker = await h.startWorker([thermoHandler], { orphanAfterMs: 300, trackerIntervalMs: 20 });
  }, 60_000);

  afterAll(async () => {
    await playedThermos?.stop();
    await playedSirens?.stop();
    await h.tearDown();
  });

  it('a worker leaves queued rows of a family it does not serve to that family’s worker', async () => {
    const [sirenCode] = sirens.keys();
    playedSirens.behaviour.set(sirenCode, 'ok');
    // The sirens' worker is not running: their dispatch waits on its queue, its rows queued.
    const sirenDispatch = await h.dispatch(SIREN_FAMILY, 'sound', {}, [sirens.get(sirenCode)!]);
    // A thermostat dispatch whose job is lost: only the thermostats' orphan sweep sends it, so once it is delivered
    // a sweep has run over the siren rows as well.
    const [thermoCode] = thermos.keys();
    const orphan = await h.writeDispatch(THERMO_FAMILY, 'set', { setpoint: 20 }, [thermos.get(thermoCode)!]);
    await h.db.query(`DELETE FROM outbox WHERE payload->>'dispatchId' = $1`, [orphan]);
    await waitFor(async () => ((await items(orphan))[0].state === 'delivered' ? true : undefined), 10_000);

    expect(await items(sirenDispatch)).toEqual([expect.objectContaining({ state: 'queued', attempts: 0 })]);
    expect(playedSirens.received.get(sirenCode)).toBeUndefined();

    // The sirens' worker takes its job and sends it, once.
    await h.startWorker([sirenHandler], { trackerIntervalMs: 250 });
    const done = await waitFor(
      () => h.events.DispatchProgress.find((e) => e.dispatchId === sirenDispatch && e.status !== DispatchStatus.ToBeSent),
      10_000,
    );
    expect(done).toMatchObject({ family: 'alarm', status: DispatchStatus.AllSuccessful });
    // Nothing was sent before the sirens' worker started (checked above); from then on a re-send after an ack slower
    // than the ack time-out (a busy machine) is the ledger's normal behaviour, each send counted once.
    const [row] = await items(sirenDispatch);
    expect(row).toMatchObject({ state: 'delivered' });
    expect(row.attempts).toBeGreaterThanOrEqual(1);
    expect(playedSirens.received.get(sirenCode)?.length).toBeGreaterThanOrEqual(1);
    expect(playedSirens.received.get(sirenCode)!.length).toBeLessThanOrEqual(row.attempts);
    expect(await sirenStatus(sirens.get(sirenCode)!)).toBe(Thermo.Succeeded);
  }, 30_000);

  it('only the worker of a family re-sends and expires its unanswered rows, so each re-send goes out and its devices hear of the expiry', async () => {
    const silent = [...sirens.keys()].slice(1);
    for (const code of silent) playedSirens.behaviour.set(code, 'silent');
    const dispatchId = await h.dispatch(
      SIREN_FAMILY,
      'sound',
      {},
      silent.map((code) => sirens.get(code)!),
      2,
    );
    const done = await waitFor(
      () => h.events.DispatchProgress.find((e) => e.dispatchId === dispatchId && e.status !== DispatchStatus.ToBeSent),
      10_000,
    );
    expect(done.counts).toEqual({ queued: 0, sent: 0, delivered: 0, failed: 0, expired: silent.length });
    const sendsOf = (code: string) => playedSirens.received.get(code)?.length ?? 0;
    // The last re-send may still be on its way to its device.
    await waitFor(async () => ((await items(dispatchId)).every((item) => sendsOf(item.code) === item.attempts) ? true : undefined), 3000).catch(
      () => undefined,
    );
    for (const item of await items(dispatchId)) {
      // Every attempt the ledger counts went out to the device.
      expect({ code: item.code, sends: sendsOf(item.code) }).toEqual({ code: item.code, sends: item.attempts });
      expect({ code: item.code, status: await sirenStatus(item.device_id) }).toEqual({ code: item.code, status: Thermo.Failed });
    }
    expect(thermoWorker.counters.snapshot().expired).toBe(0);
  }, 30_000);
});
