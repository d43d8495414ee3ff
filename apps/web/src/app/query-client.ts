import { QueryClient } from '@tanstack/react-query';

/**
 * Refused calls already show their message (api/request.ts), so queries are not retried behind the user's back,
 * and nothing refetches on a timer or on focus unless the user turns auto refresh on.
 */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
    mutations: { retry: false },
  },
});
