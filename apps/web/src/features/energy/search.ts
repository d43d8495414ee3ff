import type { EnergyPeriod } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The energy page's period, day, chosen region and lamp page, kept in the address. */
export interface EnergySearch extends PageSearch {
  period?: EnergyPeriod;
  /** YYYY-MM-DD; for a month, any day of it. Today when absent. */
  date?: string;
  regionId?: number;
}

export const validateEnergySearch = searchOf<EnergySearch>({
  ...PAGED,
  period: { oneOf: allOf<EnergyPeriod>()('day', 'month') },
  date: 'date',
  regionId: 'int',
});
