import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OperationLogQuery, OperationLogRow, PageResult } from '@sc/contracts';
import { post } from '@/api/request';

export const logKeys = {
  page: (query: OperationLogQuery) => ['system', 'operationLog', query] as const,
};

/** Newest first, as the server orders it. */
export function useOperationLog(query: OperationLogQuery) {
  return useQuery({
    queryKey: logKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<OperationLogRow>>('/log/operationPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}
