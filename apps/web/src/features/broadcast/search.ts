import type { TASK_NAME_MAX, TERMINAL_NAME_MAX, TerminalStatus } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The terminal list's page and filters, and the dispatch being followed, kept in the address. */
export interface TerminalSearch extends PageSearch {
  terminalName?: string;
  regionId?: number;
  status?: TerminalStatus;
  dispatch?: string;
}

export const validateTerminalSearch = searchOf<TerminalSearch>({
  ...PAGED,
  terminalName: { text: 64 satisfies typeof TERMINAL_NAME_MAX },
  regionId: 'int',
  status: { oneOf: allOf<TerminalStatus>()('online', 'offline', 'occupy') },
  dispatch: 'dispatch',
});

/** The immediate broadcasts' page and name filter, and the dispatch being followed, kept in the address. */
export interface ImmediateTaskSearch extends PageSearch {
  taskName?: string;
  dispatch?: string;
}

export const validateImmediateTaskSearch = searchOf<ImmediateTaskSearch>({
  ...PAGED,
  taskName: { text: 64 satisfies typeof TASK_NAME_MAX },
  dispatch: 'dispatch',
});
