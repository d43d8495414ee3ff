import type { BroadcastTaskMode } from '@sc/contracts';
import { compact, readDispatch, readEnum, readInt, readPage, readText, type PageSearch } from '@/navigation/search-params';

/** The task list's page and filters, the task being edited ('new' or its id) or shown, and the command followed. */
export interface TaskSearch extends PageSearch {
  taskName?: string;
  taskMode?: BroadcastTaskMode;
  edit?: 'new' | number;
  detail?: number;
  dispatch?: string;
}

// The search check runs in the entry, which the tasks' module of @sc/contracts (its enums) need not join: BroadcastTaskMode's
// values and TASK_NAME_MAX written out (the task list's filter sends the name; the server checks it again).
const MODES = ['scheduled', 'immediate'] as const satisfies readonly `${BroadcastTaskMode}`[];
const TASK_NAME_MAX = 64;

export function validateTaskSearch(search: Record<string, unknown>): TaskSearch {
  return compact({
    ...readPage(search),
    taskName: readText(search.taskName, TASK_NAME_MAX),
    taskMode: readEnum(search.taskMode, MODES) as BroadcastTaskMode | undefined,
    edit: search.edit === 'new' ? 'new' : readInt(search.edit, 1, 2_147_483_647),
    detail: readInt(search.detail, 1, 2_147_483_647),
    dispatch: readDispatch(search.dispatch),
  });
}
