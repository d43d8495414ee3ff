import type { LED_NAME_MAX, OnlineState } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The LED screen list's page and filters, and the dispatch being followed, kept in the address. */
export interface LedSearch extends PageSearch {
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  dispatch?: string;
}

export const validateLedSearch = searchOf<LedSearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof LED_NAME_MAX },
  regionId: 'int',
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  dispatch: 'dispatch',
});
