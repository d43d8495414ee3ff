import type { OperationModule, OperationStatus } from '@sc/contracts';
import { allOf, PAGED, searchOf, type PageSearch } from '@/navigation/search-params';

/** The operation log's page and filters, kept in the address. */
export interface LogSearch extends PageSearch {
  module?: OperationModule;
  /** With the floor screens' module: the calls that name this player. */
  deviceId?: number;
  operator?: string;
  status?: OperationStatus;
  description?: string;
  /** Local date-times, YYYY-MM-DDTHH:mm. */
  startTime?: string;
  endTime?: string;
}

export const validateLogSearch = searchOf<LogSearch>({
  ...PAGED,
  module: { oneOf: allOf<OperationModule>()('system', 'lighting', 'broadcast', 'led', 'signage') },
  deviceId: 'id',
  operator: { text: 64 },
  status: { oneOf: allOf<OperationStatus>()('success', 'failure') },
  description: { text: 128 },
  startTime: 'dateTime',
  endTime: 'dateTime',
});
