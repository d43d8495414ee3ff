import { BROADCAST_GROUP_NAME_MAX } from '@sc/contracts';
import { compact, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

/** The group list's page and filters, kept in the address. */
export interface GroupSearch extends PageSearch {
  groupName?: string;
  regionId?: number;
}

export function validateGroupSearch(search: Record<string, unknown>): GroupSearch {
  return compact({
    ...readPage(search),
    groupName: readText(search.groupName, BROADCAST_GROUP_NAME_MAX),
    regionId: readInt(search.regionId),
  });
}
