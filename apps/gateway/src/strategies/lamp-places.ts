import type { SchedulePlace } from '@sc/contracts';
import { resolvePlace, type PlaceParts, type PlaceSource } from '@sc/schedule';

interface RegionPlace extends PlaceParts {
  id: number;
  parentId: number | null;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/** Reads the region table (small) once; the answer walks from a region up to the top, the region itself first. */
async function regionChains(query: Query): Promise<(regionId: number | null) => RegionPlace[]> {
  const regions = (await query(`SELECT id, parent_id AS "parentId", latitude, longitude, time_zone AS "timeZone" FROM region`)) as RegionPlace[];
  const byId = new Map(regions.map((r) => [r.id, r]));
  const upward = new Map<number, RegionPlace[]>();
  return (regionId) => {
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
}

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
  const chainOf = await regionChains(query);
  return new Map(lamps.map((l) => [l.id, resolvePlace(l, chainOf(l.regionId), fallback)]));
}

/** The place of a region's lamps that have no position of their own: its clock is the one their schedules keep. */
export async function regionPlace(query: Query, regionId: number, fallback: SchedulePlace): Promise<SchedulePlace> {
  const chainOf = await regionChains(query);
  return resolvePlace({ latitude: null, longitude: null }, chainOf(regionId), fallback).place;
}
