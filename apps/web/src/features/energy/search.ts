import type { EnergyPeriod } from '@sc/contracts';
import { compact, readDate, readEnum, readInt, readPage, type PageSearch } from '@/navigation/search-params';

const PERIODS: readonly EnergyPeriod[] = ['day', 'month'];

/** The energy page's period, day, chosen region and lamp page, kept in the address. */
export interface EnergySearch extends PageSearch {
  period?: EnergyPeriod;
  /** YYYY-MM-DD; for a month, any day of it. Today when absent. */
  date?: string;
  regionId?: number;
}

export function validateEnergySearch(search: Record<string, unknown>): EnergySearch {
  return compact({
    ...readPage(search),
    period: readEnum(search.period, PERIODS),
    date: readDate(search.date),
    regionId: readInt(search.regionId),
  });
}
