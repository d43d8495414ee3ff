import type { LAMP_NAME_MAX } from '@sc/contracts';
import { PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The strip list's page and filters, and the dispatch being followed, kept in the address. */
export interface StripSearch extends PageSearch {
  lampName?: string;
  regionId?: number;
  dispatch?: string;
}

export const validateStripSearch = searchOf<StripSearch>({
  ...PAGED,
  lampName: { text: 64 satisfies typeof LAMP_NAME_MAX },
  regionId: 'int',
  dispatch: 'dispatch',
});
