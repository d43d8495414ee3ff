import { longitudeBox } from './device-selection';

/** 500 m of arc, in degrees. */
const D = 500 / ((Math.PI * 6_371_000) / 180);

describe('the longitude box around a point (nearestDevices)', () => {
  it('is one range of longitudes at mid latitudes, wider as the meridians close in', () => {
    const equator = longitudeBox({ latitude: 0, longitude: 20 }, D);
    expect(equator).toBe(`pos.lon BETWEEN ${20 - D} AND ${20 + D}`);
    const [, lo, hi] = /BETWEEN (\S+) AND (\S+)/.exec(longitudeBox({ latitude: 60, longitude: 20 }, D))!.map(Number);
    expect(hi - lo).toBeCloseTo(4 * D, 6);
  });

  it('wraps across the antimeridian, on either side', () => {
    expect(longitudeBox({ latitude: 0, longitude: 179.999 }, D)).toBe(`(pos.lon >= ${179.999 - D} OR pos.lon <= ${179.999 + D - 360})`);
    expect(longitudeBox({ latitude: 0, longitude: -179.999 }, D)).toBe(`(pos.lon >= ${-179.999 - D + 360} OR pos.lon <= ${-179.999 + D})`);
  });

  it('takes every longitude where the circle reaches a pole', () => {
    expect(longitudeBox({ latitude: 89.999, longitude: 20 }, D)).toBe('true');
    expect(longitudeBox({ latitude: -90, longitude: 0 }, D)).toBe('true');
  });
});
