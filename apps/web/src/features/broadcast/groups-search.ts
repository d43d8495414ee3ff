import type { BROADCAST_GROUP_NAME_MAX } from '@sc/contracts';
import { PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The group list's page and filters, kept in the address. */
export interface GroupSearch extends PageSearch {
  groupName?: string;
  regionId?: number;
}

export const validateGroupSearch = searchOf<GroupSearch>({
  ...PAGED,
  groupName: { text: 64 satisfies typeof BROADCAST_GROUP_NAME_MAX },
  regionId: 'int',
});
