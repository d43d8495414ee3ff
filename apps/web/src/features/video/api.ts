import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  PAGE_SIZE_MAX,
  type CameraAddOrEditRequest,
  type CameraFilters,
  type CameraLiveLinks,
  type CameraPageQuery,
  type CameraRow,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';

export const cameraKeys = {
  all: ['video-equipment'] as const,
  page: (query: CameraPageQuery) => ['video-equipment', 'page', query] as const,
  /** Every camera matching the filters, read whole (the live wall's list). */
  every: (filters: CameraFilters) => ['video-equipment', 'every', filters] as const,
  detail: (id: number) => ['video-equipment', 'detail', id] as const,
};

export function useCameraPage(query: CameraPageQuery) {
  return useQuery({
    queryKey: cameraKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<CameraRow>>('/video/equipmentPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

/**
 * Every camera matching `filters`, page by page at the largest page size, as one page (so live events patch it like
 * any list page).
 */
export async function fetchEveryCamera(filters: CameraFilters, signal?: AbortSignal): Promise<PageResult<CameraRow>> {
  const list: CameraRow[] = [];
  for (let pageNum = 1; ; pageNum++) {
    const page = await post<PageResult<CameraRow>>('/video/equipmentPage', { ...filters, pageNum, pageSize: PAGE_SIZE_MAX }, { signal });
    list.push(...page.list);
    if (page.list.length < PAGE_SIZE_MAX || list.length >= page.total) return { list, total: list.length };
  }
}

export function useEveryCamera(filters: CameraFilters = {}) {
  return useQuery({
    queryKey: cameraKeys.every(filters),
    queryFn: ({ signal }) => fetchEveryCamera(filters, signal),
    staleTime: Infinity,
  });
}

export function useSaveCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CameraAddOrEditRequest) => post<{ id: number }>('/video/equipmentAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cameraKeys.all }),
  });
}

export function useDeleteCamera() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/video/equipmentDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cameraKeys.all }),
  });
}

/**
 * The signed links of a camera's live view (its HLS playlist and snapshot). The server refuses equipment whose stream
 * it cannot find or start, with its message shown (unless `silent`: a renewal tries again by itself).
 */
export function fetchLiveLinks(id: number, { signal, silent = false }: { signal?: AbortSignal; silent?: boolean } = {}): Promise<CameraLiveLinks> {
  return get<CameraLiveLinks>('/video/live', { id }, { signal, silent });
}

/** Keeps the video equipment lists live without polling: online state, the login's answer and the last answer time. */
export function useLiveCameras(): void {
  useLiveRows<CameraRow>(DeviceFamily.Camera, cameraKeys.all, { detailKey: cameraKeys.detail });
}
