import { LAMP_NAME_MAX } from '@sc/contracts';
import { compact, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The strip list's page and filters, and the dispatch being followed, kept in the address. */
export interface StripSearch extends PageSearch {
  lampName?: string;
  regionId?: number;
  dispatch?: string;
}

export function validateStripSearch(search: Record<string, unknown>): StripSearch {
  return compact({
    ...readPage(search),
    lampName: readText(search.lampName, LAMP_NAME_MAX),
    regionId: readInt(search.regionId),
    dispatch: typeof search.dispatch === 'string' && UUID.test(search.dispatch) ? search.dispatch : undefined,
  });
}
