import type { OnlineState } from '@sc/contracts';
import { REGION_AND_BELOW } from '../common/device-selection';
import { Where, likeContains } from '../common/sql';

export interface RadarFilters {
  radarName?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  groupId?: number;
}

/** The radars over `device d JOIN radar_terminal t`, with their region r and pole p. */
export const RADAR_FROM = `device d JOIN radar_terminal t ON t.device_id = d.id
  LEFT JOIN region r ON r.id = d.region_id LEFT JOIN device p ON p.id = d.pole_id`;

/** The radar list's filters over `device d JOIN radar_terminal t`, shared by the page and the export. */
export function radarWhere(f: RadarFilters): Where {
  return (
    new Where()
      // The name or the code (the separator keeps a match from spanning both).
      .addIf(f.radarName, `lower(d.name || chr(1) || d.code) LIKE ?`, f.radarName && likeContains(f.radarName))
      .addIf(f.regionId, `d.region_id IN (${REGION_AND_BELOW})`)
      .addIf(f.networkStatus, `t.network_status = ?`)
      .addIf(f.groupId, `d.id IN (SELECT device_id FROM radar_group_radar WHERE group_id = ?)`)
  );
}
