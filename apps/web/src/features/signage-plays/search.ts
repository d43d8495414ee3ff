import type { PlayReportBy } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The proof-of-play report's range, grouping, filters and page, in the address. */
export interface PlaySearch extends PageSearch {
  /** YYYY-MM-DD; the last seven days when absent. */
  startDate?: string;
  endDate?: string;
  by?: PlayReportBy;
  regionId?: number;
  groupId?: number;
  deviceId?: number;
  adId?: number;
}

export const validatePlaySearch = searchOf<PlaySearch>({
  ...PAGED,
  startDate: 'date',
  endDate: 'date',
  by: { oneOf: allOf<PlayReportBy>()('ad', 'device', 'day', 'detail') },
  regionId: 'id',
  groupId: 'id',
  deviceId: 'id',
  adId: 'id',
});
