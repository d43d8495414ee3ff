import { SimClock } from './clock';

describe('the simulated clock', () => {
  it('runs from a set time at its speed', () => {
    const clock = new SimClock(new Date('2026-11-21T10:00:00Z'), 3600);
    const start = clock.now();
    expect(Math.abs(start - Date.parse('2026-11-21T10:00:00Z'))).toBeLessThan(3600 * 50);
    clock.set(new Date('2030-01-01T00:00:00Z'), 1);
    expect(Math.abs(clock.now() - Date.parse('2030-01-01T00:00:00Z'))).toBeLessThan(50);
    expect(clock.rate).toBe(1);
  });

  it('follows a caller’s clock until it is set', () => {
    let at = new Date('2026-11-21T10:00:00Z');
    const clock = new SimClock(null, 1, () => at);
    expect(clock.now()).toBe(at.getTime());
    at = new Date('2026-11-21T22:00:00Z');
    expect(clock.now()).toBe(at.getTime());
    clock.set(new Date('2030-01-01T00:00:00Z'));
    expect(Math.abs(clock.now() - Date.parse('2030-01-01T00:00:00Z'))).toBeLessThan(50);
  });
});
