import type { ALARM_COLUMN_NAME_MAX, OnlineState } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The alarm column list's page and filters, and the command being followed, kept in the address. */
export interface AlarmColumnSearch extends PageSearch {
  name?: string;
  regionId?: number;
  networkStatus?: OnlineState;
  dispatch?: string;
}

export const validateAlarmColumnSearch = searchOf<AlarmColumnSearch>({
  ...PAGED,
  name: { text: 64 satisfies typeof ALARM_COLUMN_NAME_MAX },
  regionId: 'int',
  networkStatus: { oneOf: allOf<OnlineState>()(0, 1) },
  dispatch: 'dispatch',
});
