import { TASK_NAME_MAX, TERMINAL_NAME_MAX, type TerminalStatus } from '@sc/contracts';
import { compact, readDispatch, readEnum, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

/** The terminal list's page and filters, and the dispatch being followed, kept in the address. */
export interface TerminalSearch extends PageSearch {
  terminalName?: string;
  regionId?: number;
  status?: TerminalStatus;
  dispatch?: string;
}

/** TerminalStatus's values, written out: the search check runs in the entry, which the statuses module need not join. */
const STATUSES = ['online', 'offline', 'occupy'] as const satisfies readonly `${TerminalStatus}`[];

export function validateTerminalSearch(search: Record<string, unknown>): TerminalSearch {
  return compact({
    ...readPage(search),
    terminalName: readText(search.terminalName, TERMINAL_NAME_MAX),
    regionId: readInt(search.regionId),
    status: readEnum(search.status, STATUSES) as TerminalStatus | undefined,
    dispatch: readDispatch(search.dispatch),
  });
}

/** The immediate broadcasts' page and name filter, and the dispatch being followed, kept in the address. */
export interface ImmediateTaskSearch extends PageSearch {
  taskName?: string;
  dispatch?: string;
}

export function validateImmediateTaskSearch(search: Record<string, unknown>): ImmediateTaskSearch {
  return compact({ ...readPage(search), taskName: readText(search.taskName, TASK_NAME_MAX), dispatch: readDispatch(search.dispatch) });
}
