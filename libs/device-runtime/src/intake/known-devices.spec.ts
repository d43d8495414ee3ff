import type { Pool } from 'pg';
import { DeviceType, LAMP_FAMILY, LAMP_GATEWAY_FAMILY } from '@sc/contracts';
import { parseDeviceCodeChange } from './device-code-changes';
import { KnownDevices } from './known-devices';

/** A registry in memory that answers the cache's two queries, optionally held back until released. */
class FakeRegistry {
  devices: { id: number; code: string; type: DeviceType }[] = [];
  queries = 0;
  private held: (() => void)[] = [];
  hold = false;

  readonly pool = {
    query: async (_sql: string, params: unknown[]) => {
      this.queries++;
      const rows = this.rowsFor(params);
      if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
      return { rows };
    },
  } as unknown as Pool;

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }

  private rowsFor(params: unknown[]) {
    if (params.length === 1) return this.devices.filter((d) => (params[0] as DeviceType[]).includes(d.type));
    const [types, codes] = params as [DeviceType[], string[]];
    return this.devices.filter((d) => codes.some((code, i) => code === d.code && types[i] === d.type));
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KnownDevices', () => {
  it('drops the codes a change names, so a re-coded or re-added device is looked up again', async () => {
    const registry = new FakeRegistry();
    registry.devices = [{ id: 1, code: 'A', type: DeviceType.SingleLamp }];
    const known = new KnownDevices(registry.pool, [LAMP_FAMILY], 60_000, 1);
    await known.load();
    expect(known.get('lamp', 'A')).toBe(1);
    registry.devices = [
      { id: 1, code: 'B', type: DeviceType.SingleLamp },
      { id: 2, code: 'A', type: DeviceType.SingleLamp },
    ];
    expect(known.get('lamp', 'A')).toBe(1);
    known.forget({ keys: [`${DeviceType.SingleLamp}/A`, `${DeviceType.SingleLamp}/B`] });
    expect(known.get('lamp', 'A')).toBeUndefined();
    expect(await known.lookup('lamp', 'A')).toBe(2);
    expect(await known.lookup('lamp', 'B')).toBe(1);
    known.stop();
  });

  it('forgets a miss when the code is announced, instead of waiting for the retry interval', async () => {
    const registry = new FakeRegistry();
    const known = new KnownDevices(registry.pool, [LAMP_FAMILY], 60_000, 1);
    expect(await known.lookup('lamp', 'NEW')).toBeUndefined();
    registry.devices = [{ id: 7, code: 'NEW', type: DeviceType.SingleLamp }];
    expect(await known.lookup('lamp', 'NEW')).toBeUndefined();
    known.forget({ keys: [`${DeviceType.SingleLamp}/NEW`] });
    expect(await known.lookup('lamp', 'NEW')).toBe(7);
    known.stop();
  });

  it('answers a lookup that was running when a change arrived, but does not keep its answer', async () => {
    const registry = new FakeRegistry();
    registry.devices = [{ id: 1, code: 'A', type: DeviceType.SingleLamp }];
    const known = new KnownDevices(registry.pool, [LAMP_FAMILY], 60_000, 1);
    registry.hold = true;
    const answer = known.lookup('lamp', 'A');
    await tick();
    known.forget('all');
    registry.hold = false;
    registry.release();
    expect(await answer).toBe(1);
    expect(known.get('lamp', 'A')).toBeUndefined();
    const before = registry.queries;
    expect(await known.lookup('lamp', 'A')).toBe(1);
    expect(registry.queries).toBe(before + 1);
    expect(known.get('lamp', 'A')).toBe(1);
    known.stop();
  });

  it('reads the announcements: a list of keys, or everything', () => {
    expect(parseDeviceCodeChange('["1/A","2/B"]')).toEqual({ keys: ['1/A', '2/B'] });
    expect(parseDeviceCodeChange('*')).toBe('all');
    expect(parseDeviceCodeChange('not json')).toBe('all');
    expect(parseDeviceCodeChange('[1]')).toBe('all');
  });
});

/** The registry (`device`) and a table of its own (`lamp_gateway`, keyed by id, with its code), told apart by their SQL. */
class FakeTables {
  devices: { id: number; code: string; type: DeviceType }[] = [];
  gateways: { id: number; code: string }[] = [];
  readonly statements: string[] = [];
  failing = false;

  readonly pool = {
    query: async (sql: string, params: unknown[] = []) => {
      this.statements.push(sql);
      if (this.failing) throw Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' });
      if (/\bFROM lamp_gateway\b/.test(sql)) {
        const codes = params[0] as string[] | undefined;
        return { rows: this.gateways.filter((g) => !codes || codes.includes(g.code)) };
      }
      if (params.length === 1) return { rows: this.devices.filter((d) => (params[0] as DeviceType[]).includes(d.type)) };
      const [types, codes] = params as [DeviceType[], string[]];
      return { rows: this.devices.filter((d) => codes.some((code, i) => code === d.code && types[i] === d.type)) };
    },
  } as unknown as Pool;
}

describe('KnownDevices: families with a table of their own', () => {
  const families = [LAMP_FAMILY, LAMP_GATEWAY_FAMILY];
  const setUp = () => {
    const tables = new FakeTables();
    tables.devices = [
      { id: 1, code: 'A', type: DeviceType.SingleLamp },
      // A device of a type no served family has: never one of the served families' devices.
      { id: 2, code: 'R', type: DeviceType.Radar },
    ];
    tables.gateways = [
      { id: 10, code: 'A' },
      { id: 11, code: 'G' },
    ];
    return { tables, known: new KnownDevices(tables.pool, families, 60_000, 1) };
  };

  it('loads both kinds; a lamp and a gateway with one code stay apart', async () => {
    const { tables, known } = setUp();
    expect(await known.load()).toBe(3);
    expect(known.get('lamp', 'A')).toBe(1);
    expect(known.get('lamp-gateway', 'A')).toBe(10);
    expect(known.get('lamp-gateway', 'G')).toBe(11);
    expect(known.get('lamp', 'G')).toBeUndefined();
    expect(known.get('lamp', 'R')).toBeUndefined();
    expect(tables.statements.some((sql) => /SELECT id, code FROM lamp_gateway$/.test(sql.trim()))).toBe(true);
    known.stop();
  });

  it('looks a gateway added later up in its own table, and a lamp in the registry', async () => {
    const { tables, known } = setUp();
    await known.load();
    tables.gateways.push({ id: 12, code: 'NEW' });
    tables.devices.push({ id: 3, code: 'NEW', type: DeviceType.SingleLamp });
    const [gateway, lamp] = await Promise.all([known.lookup('lamp-gateway', 'NEW'), known.lookup('lamp', 'NEW')]);
    expect({ gateway, lamp }).toEqual({ gateway: 12, lamp: 3 });
    expect(await known.lookup('lamp-gateway', 'NOBODY')).toBeUndefined();
    // A family this cache does not serve has no devices, whatever its table holds.
    expect(await known.lookup('strip', 'A')).toBeUndefined();
    known.stop();
  });

  it('drops a gateway’s code on `lamp-gateway/<code>` and a lamp’s on `<type>/<code>`, each leaving the other', async () => {
    const { tables, known } = setUp();
    await known.load();
    tables.gateways[0].id = 20;
    tables.devices[0].id = 30;
    known.forget({ keys: ['lamp-gateway/A'] });
    expect(known.get('lamp-gateway', 'A')).toBeUndefined();
    expect(known.get('lamp', 'A')).toBe(1);
    expect(await known.lookup('lamp-gateway', 'A')).toBe(20);
    known.forget({ keys: [`${DeviceType.SingleLamp}/A`] });
    expect(known.get('lamp', 'A')).toBeUndefined();
    expect(known.get('lamp-gateway', 'A')).toBe(20);
    expect(await known.lookup('lamp', 'A')).toBe(30);
    // Keys of types and families not served, and keys that are no keys, change nothing.
    known.forget({ keys: [`${DeviceType.Radar}/A`, 'strip/A', 'nonsense', '/A'] });
    expect(known.get('lamp', 'A')).toBe(30);
    expect(known.get('lamp-gateway', 'A')).toBe(20);
    known.stop();
  });

  it('answers the codes of every device of a family from the database, also after a change emptied the cache', async () => {
    const { tables, known } = setUp();
    await known.load();
    expect((await known.codes('lamp')).sort()).toEqual(['A']);
    expect((await known.codes('lamp-gateway')).sort()).toEqual(['A', 'G']);
    // A bulk import is announced as `*`: the cache is emptied, and devices are added that never reported.
    tables.devices.push({ id: 4, code: 'B', type: DeviceType.SingleLamp });
    tables.gateways.push({ id: 13, code: 'H' });
    known.forget('all');
    expect((await known.codes('lamp')).sort()).toEqual(['A', 'B']);
    expect((await known.codes('lamp-gateway')).sort()).toEqual(['A', 'G', 'H']);
    // On the way, the cache has them again, so their stored states are taken without a lookup each.
    expect(known.get('lamp', 'B')).toBe(4);
    expect(known.get('lamp-gateway', 'H')).toBe(13);
    expect(await known.codes('strip')).toEqual([]);
    known.stop();
  });

  it('answers the cached codes while the database is unreachable', async () => {
    const { tables, known } = setUp();
    await known.load();
    tables.failing = true;
    expect((await known.codes('lamp-gateway')).sort()).toEqual(['A', 'G']);
    known.stop();
  });
});
