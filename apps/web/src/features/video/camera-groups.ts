import { OnlineState, type CameraRow } from '@sc/contracts';

/** The cameras of one region on the live wall's list, with how many of them are online. */
export interface RegionGroup {
  regionId: number | null;
  regionName: string | null;
  cameras: CameraRow[];
  online: number;
}

/** Whether a camera matches the text searched: part of its name, code or address, any case. */
export function matchesCamera(camera: Pick<CameraRow, 'name' | 'code' | 'ip' | 'rtspUrl'>, text: string): boolean {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return true;
  return [camera.name, camera.code, camera.ip, camera.rtspUrl].some((field) => field.toLowerCase().includes(wanted));
}

/** The cameras by region, regions by name (those in no region last), cameras by name within each. */
export function groupByRegion(cameras: readonly CameraRow[]): RegionGroup[] {
  const groups = new Map<number | null, RegionGroup>();
  for (const camera of cameras) {
    let group = groups.get(camera.regionId);
    if (!group) {
      group = { regionId: camera.regionId, regionName: camera.regionName, cameras: [], online: 0 };
      groups.set(camera.regionId, group);
    }
    group.cameras.push(camera);
    if (camera.networkStatus === OnlineState.Online) group.online += 1;
  }
  const byName = (a: string, b: string) => a.localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });
  for (const group of groups.values()) group.cameras.sort((a, b) => byName(a.name, b.name));
  return [...groups.values()].sort((a, b) => {
    if (a.regionId === null || b.regionId === null) return a.regionId === null ? (b.regionId === null ? 0 : 1) : -1;
    return byName(a.regionName ?? '', b.regionName ?? '');
  });
}
