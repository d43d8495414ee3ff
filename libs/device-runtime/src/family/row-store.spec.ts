import type { PoolClient } from 'pg';
import { DeviceFamily, MqttService, DeviceType, type FamilyDeclaration } from '@sc/contracts';
import type { AnyFamilyHandler, DeviceEvent } from './family-handler';
import { changedFields, RowStore } from './row-store';

/** A family declared here only: its table, a column of every type the row store handles, and a derived field. */
const DECLARATION = {
  family: DeviceFamily.Radar,
  title: 'Test sensor',
  deviceType: DeviceType.Radar,
  table: 'test_sensor',
  worker: MqttService.WorkerLighting,
  queue: null,
  job: null,
  actions: {},
  eventRoles: [],
  liveFields: ['level', 'count', 'reading', 'enabled', 'label', 'readings', 'reportedAt', 'codes', 'band'],
  reports: {},
  commands: {},
  heartbeatSeconds: 60,
} as const satisfies FamilyDeclaration;

type Fields = {
  level: number;
  count: number | null;
  reading: number | null;
  enabled: boolean;
  label: string;
  readings: Record<string, unknown> | null;
  reportedAt: string | null;
  codes: number[];
};

/** A state report sets the fields it names; `sending` sets the label, so a test can change a field no report names. */
function reduce(fields: Fields, event: DeviceEvent): Fields {
  if (event.kind === 'report') return { ...fields, ...(event.report as Partial<Fields>), reportedAt: event.at };
  if (event.kind === 'sending') return { ...fields, label: event.action };
  return fields;
}

const derive = jest.fn((fields: Fields) => ({ band: fields.level >= 50 ? 'high' : 'low' }));

const handler = (own: Partial<AnyFamilyHandler> = {}): AnyFamilyHandler => ({
  declaration: DECLARATION as never,
  columns: {
    level: { column: 'level', type: 'smallint' },
    count: { column: 'n', type: 'int' },
    reading: { column: 'reading', type: 'float8' },
    enabled: { column: 'enabled', type: 'boolean' },
    label: { column: 'label', type: 'text' },
    readings: { column: 'readings', type: 'jsonb' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
    codes: { column: 'codes', type: 'smallint[]' },
  },
  reduce: reduce as never,
  ...own,
});

/** A connection answering the row store's SELECT with `rows` (as pg returns them) and recording every statement. */
function client(rows: Record<string, unknown>[]) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const fake = {
    query: async (sql: string, params: unknown[]) => {
      statements.push({ sql: sql.replace(/\s+/g, ' ').trim(), params });
      return { rows: sql.trimStart().startsWith('SELECT') ? rows : [], rowCount: rows.length };
    },
  } as unknown as PoolClient;
  return { fake, statements };
}

const STORED_AT = new Date('2024-11-21T10:00:00.000Z');
/** A row as pg hands it back: jsonb with PostgreSQL's key order (shorter keys first), timestamps as Dates. */
const storedRow = (recordId: number, overrides: Record<string, unknown> = {}) => ({
  recordId,
  deviceCode: `S-${recordId}`,
  level: 20,
  count: 3,
  reading: 1.5,
  enabled: true,
  label: 'idle',
  readings: { ts: '2024-11-21T10:00:00.000Z', power: 3, voltage: 229.5 },
  reportedAt: STORED_AT,
  codes: [1, 5],
  ...overrides,
});

const report = (values: Partial<Fields>, at = STORED_AT.toISOString()): DeviceEvent =>
  ({ kind: 'report', channel: 'state', report: values, at }) as DeviceEvent;

describe('RowStore', () => {
  beforeEach(() => derive.mockClear());

  it('builds one locking SELECT and one UPDATE from unnest() from the handler’s columns', async () => {
    const store = new RowStore(handler());
    const { fake, statements } = client([storedRow(7)]);
    await store.apply(fake, new Map([[7, [report({ level: 40 })]]]));
    expect(statements.map((s) => s.sql)).toEqual([
      'SELECT f.device_id AS "recordId", (SELECT d.code FROM device d WHERE d.id = f.device_id) AS "deviceCode", f.level AS "level", f.n AS "count", f.reading AS "reading", ' +
        'f.enabled AS "enabled", f.label AS "label", f.readings AS "readings", f.reported_at AS "reportedAt", f.codes AS "codes" ' +
        'FROM test_sensor f WHERE f.device_id = ANY($1::int[]) ORDER BY f.device_id FOR UPDATE OF f',
      'UPDATE test_sensor f SET level = u.level, n = u.n, reading = u.reading, enabled = u.enabled, label = u.label, ' +
        'readings = u.readings, reported_at = u.reported_at, codes = u.codes ' +
        'FROM (SELECT id, level, n, reading, enabled, label, readings, reported_at, codes::smallint[] AS codes ' +
        'FROM unnest($1::int[], $2::smallint[], $3::int[], $4::float8[], $5::boolean[], $6::text[], $7::jsonb[], $8::timestamptz[], $9::text[]) ' +
        'AS t(id, level, n, reading, enabled, label, readings, reported_at, codes)) u WHERE f.device_id = u.id AND f.device_id = ANY($1::int[])',
    ]);
    expect(statements[0].params).toEqual([[7]]);
  });

  it('keys a family with a table of its own (no registry type) by its id and reads the code from that table', async () => {
    const store = new RowStore(handler({ declaration: { ...DECLARATION, deviceType: null, table: 'test_own' } as never }));
    const { fake, statements } = client([storedRow(3)]);
    await store.apply(fake, new Map([[3, [report({ level: 60 })]]]));
    expect(statements[0].sql).toMatch(
      /^SELECT f\.id AS "recordId", f\.code AS "deviceCode", .* FROM test_own f WHERE f\.id = ANY\(\$1::int\[\]\) ORDER BY f\.id FOR UPDATE OF f$/,
    );
    expect(statements[1].sql).toMatch(/^UPDATE test_own f SET .* WHERE f\.id = u\.id AND f\.id = ANY\(\$1::int\[\]\)$/);
  });

  it('applies each device’s events in order and writes only the devices that changed, with their values as pg takes them', async () => {
    const store = new RowStore(handler());
    const { fake, statements } = client([storedRow(1), storedRow(2), storedRow(3, { readings: null })]);
    const at = '2024-11-21T11:00:00.000Z';
    const changes = await store.apply(
      fake,
      new Map([
        [1, [report({ level: 40 }, at), report({ level: 80, codes: [2, 3] }, at)]],
        // Reports exactly what is stored: nothing to write.
        [2, [report({ level: 20 })]],
        [3, [report({ readings: { a: 1 }, enabled: false, count: null }, at)]],
      ]),
    );
    expect(changes.map((c) => c.recordId)).toEqual([1, 3]);
    expect(changes[0]).toMatchObject({ recordId: 1, deviceCode: 'S-1', changed: { level: 80, codes: [2, 3], reportedAt: at } });
    expect(Object.keys(changes[0].changed).sort()).toEqual(['codes', 'level', 'reportedAt']);
    // Before: every stored field, timestamps as ISO strings.
    expect(changes[0].before).toEqual({ ...storedRow(1, { reportedAt: STORED_AT.toISOString() }), recordId: undefined, deviceCode: undefined });
    expect(changes[1].changed).toEqual({ readings: { a: 1 }, enabled: false, count: null, reportedAt: at });

    const [, update] = statements;
    expect(update.params).toEqual([
      [1, 3],
      [80, 20],
      [3, null],
      [1.5, 1.5],
      [true, false],
      ['idle', 'idle'],
      [JSON.stringify({ ts: '2024-11-21T10:00:00.000Z', power: 3, voltage: 229.5 }), JSON.stringify({ a: 1 })],
      [at, at],
      ['{2,3}', '{1,5}'],
    ]);
  });

  it('writes nothing when no device changed', async () => {
    const store = new RowStore(handler());
    const { fake, statements } = client([storedRow(1)]);
    expect(await store.apply(fake, new Map([[1, [report({ level: 20, enabled: true })]]]))).toEqual([]);
    expect(statements).toHaveLength(1);
    expect(await store.apply(fake, new Map())).toEqual([]);
    expect(statements).toHaveLength(1);
  });

  it('compares JSON values by content: the same object in another key order is no change', async () => {
    const store = new RowStore(handler());
    // What a device reports, in its own key order; PostgreSQL hands jsonb back with its keys reordered.
    const reported = { voltage: 229.5, power: 3, ts: '2024-11-21T10:00:00.000Z' };
    const { fake, statements } = client([storedRow(1)]);
    expect(await store.apply(fake, new Map([[1, [report({ readings: reported })]]]))).toEqual([]);
    expect(statements).toHaveLength(1);

    // Nested too; a changed value inside is a change, and so is another order of an array.
    const { fake: fake2 } = client([storedRow(1, { readings: { ts: 'x', zones: { L: { on: true, color: '#fff' } } } })]);
    expect(await store.apply(fake2, new Map([[1, [report({ readings: { zones: { L: { color: '#fff', on: true } }, ts: 'x' } })]]]))).toEqual([]);
    const [changed] = await store.apply(fake2, new Map([[1, [report({ readings: { zones: { L: { color: '#000', on: true } }, ts: 'x' } })]]]));
    expect(changed.changed).toEqual({ readings: { zones: { L: { color: '#000', on: true } }, ts: 'x' } });
    const [reordered] = await store.apply(fake2, new Map([[1, [report({ codes: [5, 1] })]]]));
    expect(reordered.changed).toEqual({ codes: [5, 1] });
  });

  it('announces derived fields only when they change, and only with a stored change', async () => {
    const store = new RowStore(handler({ derive: derive as never }));
    const { fake } = client([storedRow(1), storedRow(2), storedRow(3)]);
    const changes = await store.apply(
      fake,
      new Map([
        // low → high
        [1, [report({ level: 60 })]],
        // still low
        [2, [report({ level: 40 })]],
        // nothing stored changes: nothing derived either
        [3, [report({ level: 20 })]],
      ]),
    );
    expect(changes.map((c) => [c.recordId, c.changed])).toEqual([
      [1, { level: 60, band: 'high' }],
      [2, { level: 40 }],
    ]);
    expect(changes[0].before).toMatchObject({ level: 20, band: 'low' });
    expect(derive).toHaveBeenCalledTimes(4);
  });

  it('drops a silence the device has broken: an offline event with silentSince applies only when nothing came after it', async () => {
    const wentOffline = (fields: Fields, event: DeviceEvent) => (event.kind === 'offline' ? { ...fields, label: 'offline' } : reduce(fields, event));
    const store = new RowStore(handler({ reduce: wentOffline as never }));
    const { fake } = client([storedRow(1), storedRow(2), storedRow(3)]);
    const minute = (m: number) => new Date(STORED_AT.getTime() + m * 60_000).toISOString();
    const silence = (since: string): DeviceEvent => ({ kind: 'offline', at: minute(2), silentSince: since });
    const changes = await store.apply(
      fake,
      new Map([
        // Stored report at 10:00, after the silence the sweep saw began: dropped.
        [1, [silence(minute(-1))]],
        // Silent since before 10:01: applied, by the family's rule for a Last Will.
        [2, [silence(minute(1))]],
        // Reported in the same batch, after the sweep read it: dropped.
        [3, [report({ level: 30 }, minute(1.5)), silence(minute(1))]],
      ]),
    );
    expect(changes.map((c) => [c.recordId, c.changed])).toEqual([
      [2, { label: 'offline' }],
      [3, { level: 30, reportedAt: minute(1.5) }],
    ]);
  });

  it('skips devices whose row is gone', async () => {
    const store = new RowStore(handler());
    const { fake, statements } = client([storedRow(1)]);
    const changes = await store.apply(
      fake,
      new Map([
        [1, [report({ level: 40 })]],
        [99, [report({ level: 40 })]],
      ]),
    );
    expect(changes.map((c) => c.recordId)).toEqual([1]);
    expect(statements[0].params).toEqual([[1, 99]]);
    expect(statements[1].params[0]).toEqual([1]);
  });
});

describe('changedFields', () => {
  it('answers only the fields whose values differ, by content', () => {
    expect(changedFields({ a: 1, b: 'x', c: [1, 2], d: { p: 1, q: 2 }, e: null }, { a: 1, b: 'y', c: [1, 2], d: { q: 2, p: 1 }, e: null })).toEqual({
      b: 'y',
    });
    expect(changedFields({ a: null, b: { p: 1 } }, { a: 0, b: null })).toEqual({ a: 0, b: null });
    expect(changedFields({ a: { p: 1 } }, { a: { p: 1, q: undefined } })).toEqual({});
    expect(changedFields({ a: { p: 1 } }, { a: { p: 1, q: 2 } })).toEqual({ a: { p: 1, q: 2 } });
    expect(changedFields({ a: [1, 2] }, { a: [1, 2, 3] })).toEqual({ a: [1, 2, 3] });
  });
});
