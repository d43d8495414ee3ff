import type { POLE_NAME_MAX } from '@sc/contracts';
import { PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The pole list's page and filters, kept in the address. */
export interface PoleSearch extends PageSearch {
  name?: string;
  regionId?: number;
  groupId?: number;
}

export const validatePoleSearch = searchOf<PoleSearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof POLE_NAME_MAX },
  regionId: 'int',
  groupId: 'int',
});
