import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeviceGroupOption,
  MountedDevice,
  PageResult,
  PoleAddOrEditRequest,
  PoleDetail,
  PoleMountRequest,
  PoleMountableQuery,
  PolePageQuery,
  PoleRow,
} from '@sc/contracts';
import { get, post } from '@/api/request';

export const poleKeys = {
  all: ['poles'] as const,
  page: (query: PolePageQuery) => ['poles', 'page', query] as const,
  detail: (id: number) => ['poles', 'detail', id] as const,
  groups: ['poles', 'groups'] as const,
  mountable: (query: PoleMountableQuery) => ['poles', 'mountable', query] as const,
};

export function usePolePage(query: PolePageQuery) {
  return useQuery({
    queryKey: poleKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<PoleRow>>('/lamp/polePage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePoleDetail(id: number | null) {
  return useQuery({
    queryKey: poleKeys.detail(id ?? 0),
    queryFn: ({ signal }) => get<PoleDetail>('/lamp/poleDetail', { id: id! }, { signal }),
    enabled: id !== null,
  });
}

export function usePoleGroups() {
  return useQuery({ queryKey: poleKeys.groups, queryFn: ({ signal }) => get<DeviceGroupOption[]>('/lamp/poleGroups', undefined, { signal }) });
}

export function useMountable(query: PoleMountableQuery, enabled: boolean) {
  return useQuery({
    queryKey: poleKeys.mountable(query),
    queryFn: ({ signal }) => post<MountedDevice[]>('/lamp/poleMountable', query, { signal }),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** Every pole query (list, details, groups, candidates) is fetched again after a change. */
function useChange<T, R>(call: (body: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSuccess: () => queryClient.invalidateQueries({ queryKey: poleKeys.all }) });
}

export const useSavePole = () => useChange((body: PoleAddOrEditRequest) => post<{ id: number }>('/lamp/poleAddOrEdit', body));
export const useDeletePole = () => useChange((id: number) => get<null>('/lamp/poleDel', { id }));
export const useMount = () => useChange((body: PoleMountRequest) => post<{ mounted: number }>('/lamp/poleMount', body));
export const useUnmount = () => useChange((body: PoleMountRequest) => post<{ unmounted: number }>('/lamp/poleUnmount', body));
export const useAddPoleGroup = () => useChange((name: string) => post<{ id: number }>('/lamp/poleGroupAdd', { name }));
