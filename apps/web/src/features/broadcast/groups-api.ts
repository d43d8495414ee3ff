import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BroadcastGroupAddOrEditRequest,
  BroadcastGroupDetail,
  BroadcastGroupOption,
  BroadcastGroupPageQuery,
  BroadcastGroupRow,
  PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';

export const broadcastGroupKeys = {
  all: ['broadcastGroups'] as const,
  page: (query: BroadcastGroupPageQuery) => ['broadcastGroups', 'page', query] as const,
  detail: (id: number) => ['broadcastGroups', 'detail', id] as const,
  options: ['broadcastGroups', 'options'] as const,
};

export function useBroadcastGroupPage(query: BroadcastGroupPageQuery) {
  return useQuery({
    queryKey: broadcastGroupKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<BroadcastGroupRow>>('/broadcast/groupPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useBroadcastGroup(id: number) {
  return useQuery({
    queryKey: broadcastGroupKeys.detail(id),
    queryFn: ({ signal }) => get<BroadcastGroupDetail>('/broadcast/groupDetail', { id }, { signal }),
    enabled: id > 0,
    // The form edits what it loaded, fetched afresh on each visit: not fetched again under the user's hands, nor kept after.
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
}

/** Every group for a picker, empty ones marked. */
export function useBroadcastGroupOptions() {
  return useQuery({
    queryKey: broadcastGroupKeys.options,
    queryFn: ({ signal }) => get<BroadcastGroupOption[]>('/broadcast/groupOptions', undefined, { signal }),
  });
}

/** Saving or deleting a group changes its list, its options and its detail: all are fetched again. */
function useGroupMutation<V>(call: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => queryClient.invalidateQueries({ queryKey: broadcastGroupKeys.all }) });
}

export function useSaveBroadcastGroup() {
  return useGroupMutation((body: BroadcastGroupAddOrEditRequest) => post<{ id: number }>('/broadcast/groupAddOrEdit', body));
}

export function useDeleteBroadcastGroup() {
  return useGroupMutation((id: number) => get<null>('/broadcast/groupDel', { id }));
}
