import { Logger } from '@nestjs/common';
import { Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { JobName, QueueName } from '@sc/contracts';
import { dataSourceOptions } from '@sc/database';
import { bullPrefix } from '@sc/messaging';
import { createTestDatabase, uniquePrefix, waitFor, type TestDatabase } from '@sc/testing';
import { loadConfig, type AppConfig } from '../src/config/app-config';
import { loadDemoData } from '../src/demo/demo-data';
import { DEMO_LAMPS, loadDemoLamps } from '../src/demo/demo-lamps';
import { OutboxRelay } from '../src/dispatch/outbox-relay';

const jobId = (n: number) => `${JobName.DistributeLampDispatch}:00000000-0000-4000-8000-${String(n).padStart(12, '0')}:1`;

describe('outbox relay', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let config: AppConfig;
  let queue: Queue;
  const relays: OutboxRelay[] = [];

  const relay = (overrides: Partial<AppConfig> = {}, options = {}) => {
    const r = new OutboxRelay(ds, { ...config, ...overrides }, options);
    relays.push(r);
    return r;
  };
  const addRows = (from: number, count: number) =>
    db.query(
      `INSERT INTO outbox (queue, job_name, job_id, payload)
       SELECT 'lamp-distribution', 'distribute-lamp-dispatch', 'distribute-lamp-dispatch:00000000-0000-4000-8000-' || lpad(n::text, 12, '0') || ':1',
              jsonb_build_object('dispatchId', n::text)
         FROM generate_series($1::int, $2::int) AS n`,
      [from, from + count - 1],
    );
  const outboxCount = async () => (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox`))[0].n;

  beforeAll(async () => {
    // The relay's warning about Redis being away is expected here.
    Logger.overrideLogger(false);
    db = await createTestDatabase('relay');
    ds = await new DataSource(dataSourceOptions(db.url)).initialize();
    config = { ...loadConfig({}), databaseUrl: db.url, redisPrefix: uniquePrefix('relay') };
    queue = new Queue(QueueName.LampDistribution, { connection: { url: config.redisUrl }, prefix: bullPrefix(config.redisPrefix) });
  });
  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.close()));
    await db.query(`DELETE FROM outbox`);
  });
  afterAll(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
    await ds.destroy();
    await db.drop();
  });

  it('keeps the rows while Redis is out of reach, and closes promptly', async () => {
    await addRows(1, 3);
    const cut = relay({ redisUrl: 'redis://127.0.0.1:1' }, { sweepMs: 100, enqueueTimeoutMs: 200 });
    await expect(cut.relayBatch()).rejects.toThrow(/did not take the jobs/);
    await cut.start();
    await new Promise((r) => setTimeout(r, 700));
    expect(await outboxCount()).toBe(3);
    const started = Date.now();
    await cut.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await outboxCount()).toBe(3);

    // The same rows go as soon as a relay reaches Redis.
    await relay().start();
    await waitFor(async () => ((await outboxCount()) === 0 ? true : undefined), 3000);
    for (const n of [1, 2, 3]) expect((await queue.getJob(jobId(n)))?.data).toEqual({ dispatchId: String(n) });
  });

  it('is woken by NOTIFY, and adding a job id twice (a crash before the delete) makes one job', async () => {
    await relay({}, { sweepMs: 60_000 }).start();
    await addRows(10, 1);
    await waitFor(async () => ((await outboxCount()) === 0 ? true : undefined), 1000, 20);
    await addRows(10, 1);
    await waitFor(async () => ((await outboxCount()) === 0 ? true : undefined), 1000, 20);
    const jobs = (await queue.getJobs(['waiting'])).filter((j) => j.id === jobId(10));
    expect(jobs).toHaveLength(1);
  });

  it('shares a backlog between relays of several processes, each row relayed once', async () => {
    await addRows(1000, 450);
    await Promise.all([relay().start(), relay().start(), relay().start()]);
    await waitFor(async () => ((await outboxCount()) === 0 ? true : undefined), 5000);
    const ids = new Set((await queue.getJobs(['waiting'])).map((j) => j.id));
    for (let n = 1000; n < 1450; n++) expect(ids.has(jobId(n))).toBe(true);
  });
});

describe('demo lamps (seed-demo)', () => {
  let db: TestDatabase;
  afterAll(() => db.drop());

  it('adds about 300 lamps to a demo database once, in the demo subdistricts', async () => {
    db = await createTestDatabase('demolamps');
    expect(await loadDemoLamps(db.url)).toBe('not-a-demo-database');
    await loadDemoData(db.url);
    expect(await loadDemoLamps(db.url)).toBe('loaded');
    expect(await loadDemoLamps(db.url)).toBe('already-loaded');
    const rows = await db.query<{ code: string; region: string; gateway_id: string }>(
      `SELECT d.code, r.region_name AS region, l.gateway_id FROM device d JOIN lamp l ON l.device_id = d.id JOIN region r ON r.id = d.region_id
        WHERE d.type = 1 ORDER BY d.code`,
    );
    expect(rows).toHaveLength(300);
    expect(rows.map((r) => r.code)).toEqual(DEMO_LAMPS.map((l) => l.code));
    expect([rows[0].code, rows[299].code]).toEqual(['LAMP-00001', 'LAMP-00300']);
    const perRegion = new Map<string, number>();
    for (const r of rows) perRegion.set(r.region, (perRegion.get(r.region) ?? 0) + 1);
    expect(perRegion.size).toBe(8);
    for (const count of perRegion.values()) expect(count === 37 || count === 38).toBe(true);
    expect(new Set(DEMO_LAMPS.map((l) => l.mac)).size).toBe(300);
  });
});
