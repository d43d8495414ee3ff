import { isDeadCamera } from './camera.sim';

describe('simulated cameras', () => {
  it('picks about the fraction asked for as dead, the same ones every time', () => {
    const codes = Array.from({ length: 2000 }, (_, i) => `CAM-${String(i + 1).padStart(4, '0')}`);
    const dead = codes.filter((c) => isDeadCamera(c, 0.1));
    expect(dead.length).toBeGreaterThan(120);
    expect(dead.length).toBeLessThan(280);
    expect(codes.filter((c) => isDeadCamera(c, 0.1))).toEqual(dead);
    expect(codes.some((c) => isDeadCamera(c, 0))).toBe(false);
  });
});
