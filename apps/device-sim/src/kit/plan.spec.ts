import { generateCodes, pickIndexes, planFleet, seedsOf } from './plan';

describe('planFleet', () => {
  it('keeps recorded gateways and fills generated ones with the rest', () => {
    const plan = planFleet(
      [{ code: 'A' }, { code: 'B', gatewayId: 'GW-X' }, { code: 'C' }, { code: 'D' }, { code: 'E', gatewayId: 'GW-X' }],
      2,
      'P-GW-',
    );
    expect(Object.fromEntries(plan.gateways)).toEqual({ 'GW-X': ['B', 'E'], 'P-GW-0001': ['A', 'C'], 'P-GW-0002': ['D'] });
    expect(plan.rejected).toEqual([]);
  });

  it('leaves out codes that cannot be a topic level, and repeats', () => {
    const plan = planFleet([{ code: 'ok' }, { code: 'a/b' }, { code: '+' }, { code: 'ok' }, { code: '' }], 50, 'GW-');
    expect(Object.fromEntries(plan.gateways)).toEqual({ 'GW-0001': ['ok'] });
    expect(plan.rejected).toEqual(['a/b', '+', 'ok', '']);
  });
});

describe('pickIndexes', () => {
  it('picks the asked number of distinct indexes', () => {
    const picked = pickIndexes(100, 5, Math.random);
    expect(picked.size).toBe(5);
    for (const i of picked) expect(i).toBeGreaterThanOrEqual(0);
    expect(pickIndexes(3, 10, Math.random).size).toBe(3);
    expect(pickIndexes(3, 0, Math.random).size).toBe(0);
  });
});

describe('seedsOf', () => {
  const load = (url: string) => Promise.resolve([{ code: `from ${url}` }]);

  it("generates codes with five digits at least, or takes the given ones, or the registry's", async () => {
    expect(generateCodes(2, 'T-')).toEqual(['T-00001', 'T-00002']);
    expect(generateCodes(100_000, 'T-').at(-1)).toBe('T-100000');
    expect(await seedsOf({ count: 2 }, 'BC-', load)).toEqual({ seeds: [{ code: 'BC-00001' }, { code: 'BC-00002' }], registered: false });
    expect(await seedsOf({ count: 1, prefix: 'X-' }, 'BC-', load)).toEqual({ seeds: [{ code: 'X-00001' }], registered: false });
    expect(await seedsOf(['A', { code: 'B', gatewayId: 'G' }], 'BC-', load)).toEqual({
      seeds: [{ code: 'A' }, { code: 'B', gatewayId: 'G' }],
      registered: false,
    });
    expect(await seedsOf({ databaseUrl: 'db' }, 'BC-', load)).toEqual({ seeds: [{ code: 'from db' }], registered: true });
  });
});
