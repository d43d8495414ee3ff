import type { STRATEGY_NAME_MAX, StrategyMode } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The strategy page's list filters, the dispatch being followed and the lamp whose schedule is open, in the address. */
export interface StrategySearch extends PageSearch {
  name?: string;
  mode?: StrategyMode;
  dispatch?: string;
  lamp?: number;
}

export const validateStrategySearch = searchOf<StrategySearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof STRATEGY_NAME_MAX },
  // Sunrise and sunset, date, week, sensing.
  mode: { oneOf: allOf<StrategyMode>()(0, 1, 2, 3) },
  dispatch: 'dispatch',
  lamp: 'int',
});
