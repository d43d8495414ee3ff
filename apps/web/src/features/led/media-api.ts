import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LED_MEDIA_NAME_FIELD, UPLOAD_FIELD, type LedMediaPageQuery, type LedMediaRow, type MediaLink, type PageResult } from '@sc/contracts';
import { get, post } from '@/api/request';
import { upload } from '@/api/upload';

export const ledMediaKeys = {
  all: ['ledMedia'] as const,
  page: (query: LedMediaPageQuery) => ['ledMedia', 'page', query] as const,
  preview: (id: number) => ['ledMedia', 'preview', id] as const,
};

export function useLedMediaPage(query: LedMediaPageQuery) {
  return useQuery({
    queryKey: ledMediaKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<LedMediaRow>>('/led/mediaPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Sends a picture or a video to the upload port (`/api/led/mediaUpload`), reporting progress. */
export function useUploadLedMedia(base: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, name, onProgress }: { file: File; name: string; onProgress: (fraction: number) => void }) => {
      const body = new FormData();
      if (name.trim()) body.append(LED_MEDIA_NAME_FIELD, name.trim());
      body.append(UPLOAD_FIELD, file, file.name);
      return upload<LedMediaRow>('/led/mediaUpload', body, { base, onProgress });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ledMediaKeys.all }),
  });
}

export function useDeleteLedMedia() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => post<null>('/led/mediaDel', { id }, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ledMediaKeys.all }),
  });
}

/** A short-lived signed link to a medium's file (media elements cannot send the session's header). */
export function useLedMediaPreview(id: number) {
  return useQuery({
    queryKey: ledMediaKeys.preview(id),
    queryFn: ({ signal }) => get<MediaLink>('/led/mediaPreview', { id }, { signal }),
    staleTime: 60_000,
    gcTime: 0,
  });
}
