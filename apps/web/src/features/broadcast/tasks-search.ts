import type { BroadcastTaskMode, TASK_NAME_MAX } from '@sc/contracts';
import { allOf, PAGED, readInt, searchOf, type PageSearch } from '@/navigation/search-params';

/** The task list's page and filters, the task being edited ('new' or its id) or shown, and the command followed. */
export interface TaskSearch extends PageSearch {
  taskName?: string;
  taskMode?: BroadcastTaskMode;
  edit?: 'new' | number;
  detail?: number;
  dispatch?: string;
}

export const validateTaskSearch = searchOf<TaskSearch>({
  ...PAGED,
  taskName: { text: 64 satisfies typeof TASK_NAME_MAX },
  taskMode: { oneOf: allOf<BroadcastTaskMode>()('scheduled', 'immediate') },
  edit: (value) => (value === 'new' ? 'new' : readInt(value, 1, 2_147_483_647)),
  detail: 'id',
  dispatch: 'dispatch',
});
