import { STRATEGY_NAME_MAX, StrategyMode } from '@sc/contracts';
import { compact, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
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
    dispatch: typeof search.dispatch === 'string' && UUID.test(search.dispatch) ? search.dispatch : undefined,
    lamp: readInt(search.lamp),
  });
}
