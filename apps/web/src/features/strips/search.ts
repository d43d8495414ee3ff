import { LAMP_NAME_MAX } from '@sc/contracts';
import { compact, readDispatch, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

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
    dispatch: readDispatch(search.dispatch),
  });
}
