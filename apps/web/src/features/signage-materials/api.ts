import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MATERIAL_NAME_FIELD,
  UPLOAD_FIELD,
  type MaterialPageQuery,
  type MaterialRenameRequest,
  type MaterialRow,
  type MaterialStatusRequest,
  type MaterialStorageAreaRequest,
  type MediaLink,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { upload } from '@/api/upload';

export const materialKeys = {
  all: ['signageMaterials'] as const,
  page: (query: MaterialPageQuery) => ['signageMaterials', 'page', query] as const,
  preview: (id: number) => ['signageMaterials', 'preview', id] as const,
};

export function useMaterialPage(query: MaterialPageQuery) {
  return useQuery({
    queryKey: materialKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<MaterialRow>>('/signage/material/page', query, { signal }),
    placeholderData: keepPreviousData,
  });
}

function useInvalidateMaterials() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: materialKeys.all });
}

/** Sends a material to the upload port, reporting progress; the server checks it by content and makes its cover. */
export function useUploadMaterial(base: string | undefined) {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: ({ file, name, onProgress }: { file: File; name: string; onProgress: (fraction: number) => void }) => {
      const body = new FormData();
      if (name.trim()) body.append(MATERIAL_NAME_FIELD, name.trim());
      body.append(UPLOAD_FIELD, file, file.name);
      return upload<MaterialRow>('/signage/material/upload', body, { base, onProgress });
    },
    onSuccess: invalidate,
  });
}

export function useRenameMaterial() {
  const invalidate = useInvalidateMaterials();
  return useMutation({ mutationFn: (body: MaterialRenameRequest) => post<MaterialRow>('/signage/material/rename', body), onSuccess: invalidate });
}

export function useMaterialStatus() {
  const invalidate = useInvalidateMaterials();
  return useMutation({ mutationFn: (body: MaterialStatusRequest) => post<MaterialRow>('/signage/material/status', body), onSuccess: invalidate });
}

export function useMaterialStorageArea() {
  const invalidate = useInvalidateMaterials();
  return useMutation({
    mutationFn: (body: MaterialStorageAreaRequest) => post<MaterialRow>('/signage/material/storageArea', body),
    onSuccess: invalidate,
  });
}

export function useDeleteMaterial() {
  const invalidate = useInvalidateMaterials();
  return useMutation({ mutationFn: (id: number) => get<null>('/signage/material/del', { id }, { silent: true }), onSuccess: invalidate });
}

/** A signed link the media elements can load (they cannot send the session's header), fetched when the preview opens. */
/** A short-lived signed link to a material's file (media elements cannot send the session's header). */
export function materialPreviewQuery(id: number) {
  return {
    queryKey: materialKeys.preview(id),
    queryFn: ({ signal }: { signal: AbortSignal }) => get<MediaLink>('/signage/material/preview', { id }, { signal }),
    staleTime: 60_000,
  };
}

export function useMaterialPreview(id: number) {
  return useQuery({ ...materialPreviewQuery(id), gcTime: 0 });
}
