import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PAGE_SIZE_MAX,
  type GroupAddOrEditRequest,
  type GroupPageQuery,
  type GroupRow,
  type PageResult,
  type PermissionMenuItem,
} from '@sc/contracts';
import { get, post } from '@/api/request';

export const groupKeys = {
  all: ['system', 'groups'] as const,
  list: (groupName: string | undefined) => ['system', 'groups', 'list', groupName ?? ''] as const,
  permissionMenu: ['system', 'permissionMenu'] as const,
};

/**
 * Every group matching the name filter. Groups are few, so the list is read whole (page by page at the largest page size)
 * and split into administrator and general roles on this side.
 */
export async function fetchAllGroups(groupName?: string, signal?: AbortSignal): Promise<GroupRow[]> {
  const rows: GroupRow[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const query: GroupPageQuery = { pageNum, pageSize: PAGE_SIZE_MAX, groupName };
    const page = await post<PageResult<GroupRow>>('/user/groupPage', query, { signal });
    rows.push(...page.list);
    if (page.list.length < PAGE_SIZE_MAX || rows.length >= page.total) return rows;
  }
}

export function useGroups(groupName?: string) {
  return useQuery({
    queryKey: groupKeys.list(groupName),
    queryFn: ({ signal }) => fetchAllGroups(groupName, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePermissionMenu() {
  return useQuery({
    queryKey: groupKeys.permissionMenu,
    queryFn: ({ signal }) => get<PermissionMenuItem[]>('/user/permissionMenu', undefined, { signal }),
    staleTime: Infinity,
  });
}

/** Group changes show in the user list too (group names, permissions). */
function useInvalidateAfterGroupChange() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: groupKeys.all }), queryClient.invalidateQueries({ queryKey: ['system', 'users'] })]);
}

export function useSaveGroup() {
  const invalidate = useInvalidateAfterGroupChange();
  return useMutation({
    mutationFn: (body: GroupAddOrEditRequest) => post<{ id: number }>('/user/groupAddOrEdit', body),
    onSuccess: invalidate,
  });
}

export function useDeleteGroup() {
  const invalidate = useInvalidateAfterGroupChange();
  return useMutation({
    mutationFn: (id: number) => get<null>('/user/groupDel', { id }),
    onSuccess: invalidate,
  });
}
