import type { SchedulePlace } from '@sc/contracts';
import { resolvePlace, type PlaceParts, type PlaceSource } from '@sc/schedule';

interface RegionPlace extends PlaceParts {
  id: number;
  parentId: number | null;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/**
 * Each lamp's place for its schedule: its own position, else its region's or the nearest ancestor's, else the
 * installation default; the time zone is the nearest region's that names one. The region table is small: it is read
 * once and walked in memory, so a distribution to 10,000 lamps costs two queries.
 */
export async function lampPlaces(
  query: Query,
  deviceIds: readonly number[],
  fallback: SchedulePlace,
): Promise<Map<number, { place: SchedulePlace; source: PlaceSource }>> {
  const lamps = (await query(`SELECT id, latitude, longitude, region_id AS "regionId" FROM device WHERE id = ANY($1::int[])`, [deviceIds])) as {
    id: number;
    latitude: number | null;
    longitude: number | null;
    regionId: number | null;
  }[];
  const regions = (await query(`SELECT id, parent_id AS "parentId", latitude, longitude, time_zone AS "timeZone" FROM region`)) as RegionPlace[];
  const byId = new Map(regions.map((r) => [r.id, r]));
  const upward = new Map<number, RegionPlace[]>();
  const chainOf = (regionId: number | null): RegionPlace[] => {
    if (regionId === null) return [];
    let chain = upward.get(regionId);
    if (!chain) {
      chain = [];
      // Bounded by the number of regions, so a cycle in bad data cannot loop forever.
      for (let r = byId.get(regionId); r && chain.length <= regions.length; r = r.parentId === null ? undefined : byId.get(r.parentId)) chain.push(r);
      upward.set(regionId, chain);
    }
    return chain;
  };
  return new Map(lamps.map((l) => [l.id, resolvePlace(l, chainOf(l.regionId), fallback)]));
}
