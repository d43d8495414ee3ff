import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OperationLogQuery, OperationLogRow, PageResult } from '@sc/contracts';
import { post } from '@/api/request';

export const logKeys = {
  page: (query: OperationLogQuery) => ['system', 'operationLog', query] as const,
};

/**
 * Newest first, as the server orders it. `ofModule`: the log of the query's module of devices only (a module's page,
 * which its operators read too), not the whole log (administrators').
 */
export function useOperationLog(query: OperationLogQuery, ofModule = false) {
  return useQuery({
    queryKey: [...logKeys.page(query), ofModule],
    queryFn: ({ signal }) => post<PageResult<OperationLogRow>>(ofModule ? '/log/modulePage' : '/log/operationPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}
