import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MEDIA_NAME_FIELD,
  UPLOAD_FIELD,
  type MediaAuditRequest,
  type MediaLink,
  type MediaPageQuery,
  type MediaRenameRequest,
  type MediaRow,
  type PageResult,
  type PlaylistAddOrEditRequest,
  type PlaylistDetail,
  type PlaylistPageQuery,
  type PlaylistRow,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { upload } from '@/api/upload';

export const mediaKeys = {
  all: ['media'] as const,
  page: (query: MediaPageQuery) => ['media', 'page', query] as const,
};

export const playlistKeys = {
  all: ['playlists'] as const,
  page: (query: PlaylistPageQuery) => ['playlists', 'page', query] as const,
  detail: (id: number) => ['playlists', 'detail', id] as const,
};

export function useMediaPage(query: MediaPageQuery, enabled = true) {
  return useQuery({
    queryKey: mediaKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<MediaRow>>('/broadcast/mediaPage', query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A change to the library also changes what playlists show (names, counts), and the reverse. */
function useInvalidateBroadcastMedia() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: mediaKeys.all }), queryClient.invalidateQueries({ queryKey: playlistKeys.all })]);
}

/** Sends an MP3 to the upload port, reporting progress; the server checks it by content. */
export function useUploadMedia(base: string | undefined) {
  const invalidate = useInvalidateBroadcastMedia();
  return useMutation({
    mutationFn: ({ file, name, onProgress }: { file: File; name: string; onProgress: (fraction: number) => void }) => {
      const body = new FormData();
      if (name.trim()) body.append(MEDIA_NAME_FIELD, name.trim());
      body.append(UPLOAD_FIELD, file, file.name);
      return upload<MediaRow>('/broadcast/mediaUpload', body, { base, onProgress });
    },
    onSuccess: invalidate,
  });
}

export function useRenameMedia() {
  const invalidate = useInvalidateBroadcastMedia();
  return useMutation({ mutationFn: (body: MediaRenameRequest) => post<MediaRow>('/broadcast/mediaRename', body), onSuccess: invalidate });
}

export function useAuditMedia() {
  const invalidate = useInvalidateBroadcastMedia();
  return useMutation({ mutationFn: (body: MediaAuditRequest) => post<MediaRow>('/broadcast/mediaAudit', body), onSuccess: invalidate });
}

export function useDeleteMedia() {
  const invalidate = useInvalidateBroadcastMedia();
  return useMutation({ mutationFn: (id: number) => get<null>('/broadcast/mediaDel', { id }), onSuccess: invalidate });
}

/** A signed link the audio element can play (it cannot send the session's header), fetched when the player opens. */
export function useMediaPreview(id: number) {
  return useQuery({
    queryKey: ['media', 'preview', id],
    queryFn: ({ signal }) => get<MediaLink>('/broadcast/mediaPreview', { id }, { signal }),
    staleTime: 60_000,
    gcTime: 0,
  });
}

export function usePlaylistPage(query: PlaylistPageQuery) {
  return useQuery({
    queryKey: playlistKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<PlaylistRow>>('/broadcast/playlistPage', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function usePlaylist(id: number | null) {
  return useQuery({
    queryKey: playlistKeys.detail(id ?? 0),
    queryFn: ({ signal }) => get<PlaylistDetail>('/broadcast/playlistDetail', { id: id ?? 0 }, { signal }),
    enabled: id !== null,
  });
}

export function useSavePlaylist() {
  const invalidate = useInvalidateBroadcastMedia();
  return useMutation({
    mutationFn: (body: PlaylistAddOrEditRequest) => post<{ id: number }>('/broadcast/playlistAddOrEdit', body),
    onSuccess: invalidate,
  });
}

export function useDeletePlaylist() {
  const invalidate = useInvalidateBroadcastMedia();
  return useMutation({ mutationFn: (id: number) => get<null>('/broadcast/playlistDel', { id }), onSuccess: invalidate });
}
