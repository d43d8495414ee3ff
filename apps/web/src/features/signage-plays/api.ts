import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { PlayReportQuery, PlayReportResult } from '@sc/contracts';
import { post } from '@/api/request';

export const playKeys = {
  all: ['signagePlays'] as const,
  report: (query: PlayReportQuery) => ['signagePlays', 'report', query] as const,
};

/** A page of the proof-of-play report and its totals. */
export function usePlayReport(query: PlayReportQuery) {
  return useQuery({
    queryKey: playKeys.report(query),
    queryFn: ({ signal }) => post<PlayReportResult>('/signage/playReport', query, { signal }),
    placeholderData: keepPreviousData,
  });
}
