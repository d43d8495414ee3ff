import type { OnlineState, RADAR_NAME_MAX } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The radar list's page and filters, kept in the address. */
export interface RadarSearch extends PageSearch {
  radarName?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  groupId?: number;
}

export const validateRadarSearch = searchOf<RadarSearch>({
  ...PAGED,
  radarName: { text: 64 satisfies typeof RADAR_NAME_MAX },
  regionId: 'int',
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  groupId: 'int',
});

/** The group and strategy lists' page and name filter. */
export interface RadarNameSearch extends PageSearch {
  name?: string;
}

export const validateRadarNameSearch = searchOf<RadarNameSearch>({ ...PAGED, name: { text: 64 satisfies typeof RADAR_NAME_MAX } });
