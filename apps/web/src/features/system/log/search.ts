import { OperationStatus } from '@sc/contracts';
import { compact, readDate, readEnum, readPage, readText, type PageSearch } from '@/navigation/search-params';

/** The operation log's page and filters, kept in the address. */
export interface LogSearch extends PageSearch {
  operator?: string;
  status?: OperationStatus;
  description?: string;
  /** Local date-times, YYYY-MM-DDTHH:mm. */
  startTime?: string;
  endTime?: string;
}

export function validateLogSearch(search: Record<string, unknown>): LogSearch {
  return compact({
    ...readPage(search),
    operator: readText(search.operator, 64),
    status: readEnum(search.status, Object.values(OperationStatus)),
    description: readText(search.description, 128),
    startTime: readDate(search.startTime, true),
    endTime: readDate(search.endTime, true),
  });
}
