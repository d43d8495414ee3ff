import type { Pool } from 'pg';
import { DeviceType, LAMP_FAMILY } from '@sc/contracts';
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
