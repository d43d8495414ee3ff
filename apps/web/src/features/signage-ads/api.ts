import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MaterialStatus,
  PAGE_SIZE_MAX,
  type AdAuditRequest,
  type AdDeleteRequest,
  type AdDetail,
  type AdEditRequest,
  type AdPageQuery,
  type AdRequest,
  type AdRow,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { materialPreviewQuery, useMaterialPage } from '@/features/signage-materials/api';

export const adKeys = {
  all: ['signageAds'] as const,
  page: (query: AdPageQuery) => ['signageAds', 'page', query] as const,
  detail: (id: number) => ['signageAds', 'detail', id] as const,
};

export function useAdPage(query: AdPageQuery) {
  return useQuery({
    queryKey: adKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<AdRow>>('/signage/ad/page', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAdDetail(id: number | null) {
  return useQuery({
    queryKey: adKeys.detail(id ?? 0),
    queryFn: ({ signal }) => get<AdDetail>('/signage/ad/detail', { id: id! }, { signal }),
    enabled: id !== null,
    gcTime: 0,
  });
}

function useInvalidateAds() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: adKeys.all });
}

/** Adds (no id) or edits an ad; the server checks it again and answers its field errors. */
export function useSaveAd() {
  const invalidate = useInvalidateAds();
  return useMutation({
    mutationFn: (ad: AdRequest & { id?: number }) =>
      ad.id === undefined ? post<AdDetail>('/signage/ad/add', ad) : post<AdDetail>('/signage/ad/edit', ad as AdEditRequest),
    onSuccess: invalidate,
  });
}

export function useDeleteAds() {
  const invalidate = useInvalidateAds();
  return useMutation({ mutationFn: (body: AdDeleteRequest) => post<null>('/signage/ad/delete', body), onSuccess: invalidate });
}

export function useAuditAd() {
  const invalidate = useInvalidateAds();
  return useMutation({ mutationFn: (body: AdAuditRequest) => post<AdDetail>('/signage/ad/audit', body), onSuccess: invalidate });
}

/** The available materials the editor picks from (the newest PAGE_SIZE_MAX of them). */
export function useAvailableMaterials() {
  return useMaterialPage({ pageNum: 1, pageSize: PAGE_SIZE_MAX, status: MaterialStatus.Available });
}

/** Signed links to the materials' files, for the preview (media elements cannot send the session's header). */
export function useMaterialLinks(ids: readonly number[], enabled: boolean): Map<number, string> {
  const links = useQueries({ queries: ids.map((id) => ({ ...materialPreviewQuery(id), enabled })) });
  return new Map(ids.flatMap((id, i) => (links[i].data ? [[id, links[i].data.url] as const] : [])));
}
