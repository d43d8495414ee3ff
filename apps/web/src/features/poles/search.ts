import { POLE_NAME_MAX } from '@sc/contracts';
import { compact, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

/** The pole list's page and filters, kept in the address. */
export interface PoleSearch extends PageSearch {
  name?: string;
  regionId?: number;
  groupId?: number;
}

export function validatePoleSearch(search: Record<string, unknown>): PoleSearch {
  return compact({
    ...readPage(search),
    name: readText(search.name, POLE_NAME_MAX),
    regionId: readInt(search.regionId),
    groupId: readInt(search.groupId),
  });
}
