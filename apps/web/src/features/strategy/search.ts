import { STRATEGY_NAME_MAX, StrategyMode } from '@sc/contracts';
import { compact, readDispatch, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

const MODES = [StrategyMode.SunriseSunset, StrategyMode.Date, StrategyMode.Week, StrategyMode.Sensing];

/** The strategy page's list filters, the dispatch being followed and the lamp whose schedule is open, in the address. */
export interface StrategySearch extends PageSearch {
  name?: string;
  mode?: StrategyMode;
  dispatch?: string;
  lamp?: number;
}

export function validateStrategySearch(search: Record<string, unknown>): StrategySearch {
  const mode = Number(search.mode);
  return compact({
    ...readPage(search),
    name: readText(search.name, STRATEGY_NAME_MAX),
    mode: search.mode !== undefined && search.mode !== '' && MODES.includes(mode) ? (mode as StrategyMode) : undefined,
    dispatch: readDispatch(search.dispatch),
    lamp: readInt(search.lamp),
  });
}
