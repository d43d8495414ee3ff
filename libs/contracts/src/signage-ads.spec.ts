import { AD_ZONE_ITEMS_MAX, adLayout, adProblems, orientationAspect, zoneItemAt, type AdRequest } from './signage-ads';
import { ScreenOrientation } from './statuses';

const ad = (over: Partial<AdRequest> = {}): AdRequest => ({
  name: 'Winter sale',
  coverMaterialId: 1,
  orientation: ScreenOrientation.Portrait,
  totalDuration: 30,
  splitCount: 3,
  zones: [
    [{ materialId: 2, seconds: 15 }],
    [
      { materialId: 1, seconds: 10 },
      { materialId: 3, seconds: 5 },
    ],
    [{ materialId: 1, seconds: 30 }],
  ],
  music: [],
  auditRequired: false,
  ...over,
});
const keys = (a: Partial<AdRequest>) => adProblems(a).map((p) => `${p.field}:${p.key}`);

describe('ad rules', () => {
  it('accepts a complete ad; the same material may appear in two zones', () => {
    expect(adProblems(ad())).toEqual([]);
  });

  it('wants a name and a cover', () => {
    expect(keys(ad({ name: '  ' }))).toEqual(['name:nameEmpty']);
    expect(keys(ad({ name: 'x'.repeat(65) }))).toEqual(['name:tooLong']);
    expect(keys(ad({ coverMaterialId: null }))).toEqual(['coverMaterialId:adCoverRequired']);
  });

  it('keeps the total duration within 5 to 600 seconds', () => {
    expect(adProblems(ad({ totalDuration: 5 }))).toEqual([]);
    expect(adProblems(ad({ totalDuration: 600 }))).toEqual([]);
    for (const totalDuration of [4, 601, 30.5, undefined as unknown as number])
      expect(keys(ad({ totalDuration }))).toEqual(['totalDuration:adDurationInvalid']);
  });

  it('splits the screen into 1 to 9 zones, each with at least one material, none twice in one list', () => {
    expect(keys(ad({ splitCount: 10 }))).toEqual(['splitCount:adSplitInvalid']);
    expect(keys(ad({ splitCount: 0 }))).toEqual(['splitCount:adSplitInvalid']);
    expect(keys(ad({ zones: [[{ materialId: 2, seconds: 15 }], [], [{ materialId: 1, seconds: 30 }]] }))).toEqual(['zones[1]:adZoneNeedsMaterial']);
    expect(keys(ad({ zones: [[{ materialId: 2, seconds: 15 }]] }))).toEqual(['zones[1]:adZoneNeedsMaterial', 'zones[2]:adZoneNeedsMaterial']);
    expect(
      keys(
        ad({
          splitCount: 1,
          zones: [
            [
              { materialId: 2, seconds: 5 },
              { materialId: 2, seconds: 5 },
            ],
          ],
        }),
      ),
    ).toEqual(['zones[0][1]:materialAlreadyInPlaylist']);
    expect(keys(ad({ splitCount: 1, zones: [[{ materialId: 2, seconds: 0 }]] }))).toEqual(['zones[0][0].seconds:adItemSecondsInvalid']);
    const long = Array.from({ length: AD_ZONE_ITEMS_MAX + 1 }, (_, i) => ({ materialId: i + 1, seconds: 5 }));
    expect(keys(ad({ splitCount: 1, zones: [long] }))).toEqual(['zones[0]:playlistTooLong']);
    expect(keys(ad({ music: [7, 7] }))).toEqual(['music[1]:materialAlreadyInPlaylist']);
  });
});

describe('ad layout', () => {
  it.each([ScreenOrientation.Portrait, ScreenOrientation.Landscape])('tiles the whole %s screen for every split count', (orientation) => {
    for (let n = 1; n <= 9; n++) {
      const zones = adLayout(orientation, n);
      expect(zones).toHaveLength(n);
      expect(zones.reduce((sum, z) => sum + z.w * z.h, 0)).toBeCloseTo(1, 9);
      for (const z of zones) expect(z.x >= 0 && z.y >= 0 && z.x + z.w <= 1 + 1e-9 && z.y + z.h <= 1 + 1e-9).toBe(true);
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) {
          const [a, b] = [zones[i], zones[j]];
          const overlapW = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
          const overlapH = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
          expect(overlapW > 1e-9 && overlapH > 1e-9).toBe(false);
        }
    }
  });

  it('stacks three zones down a portrait screen and sets them side by side on a landscape one', () => {
    expect(adLayout(ScreenOrientation.Portrait, 3).map((z) => [z.x, z.y, z.w])).toEqual([
      [0, 0, 1],
      [0, 1 / 3, 1],
      [0, 2 / 3, 1],
    ]);
    expect(adLayout(ScreenOrientation.Landscape, 3).map((z) => [z.x, z.y, z.h])).toEqual([
      [0, 0, 1],
      [1 / 3, 0, 1],
      [2 / 3, 0, 1],
    ]);
    expect(orientationAspect(ScreenOrientation.Portrait)).toBeCloseTo(9 / 16);
  });

  it('loops a zone list through the ad', () => {
    const items = [
      { materialId: 1, seconds: 10 },
      { materialId: 3, seconds: 5 },
    ];
    expect(zoneItemAt(items, 0)).toEqual({ index: 0, offset: 0 });
    expect(zoneItemAt(items, 12)).toEqual({ index: 1, offset: 2 });
    expect(zoneItemAt(items, 16)).toEqual({ index: 0, offset: 1 });
    expect(zoneItemAt([], 3)).toBeNull();
  });
});
