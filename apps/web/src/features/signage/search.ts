import type { OnlineState, SIGNAGE_NAME_MAX } from '@sc/contracts';
import { allOf, PAGED, readInt, searchOf, type PageSearch } from '@/navigation/search-params';

/** The floor-screen list's page, filters (name or code, group, network status), and the dispatch followed, in the address. */
export interface SignageSearch extends PageSearch {
  name?: string;
  /** Players of this group; 0: players bound to none. */
  groupId?: number;
  networkStatus?: OnlineState;
  dispatch?: string;
}

export const validateSignageSearch = searchOf<SignageSearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof SIGNAGE_NAME_MAX },
  // 0: players bound to no group.
  groupId: (value) => readInt(value, 0),
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  dispatch: 'dispatch',
});
