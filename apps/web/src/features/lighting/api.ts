import type { TFunction } from 'i18next';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type DispatchDetail,
  type LampAddOrEditRequest,
  type LampControlRequest,
  type LampControlResult,
  type LampPageQuery,
  type LampRow,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';

export const lightingKeys = {
  all: ['lighting'] as const,
  lamps: ['lighting', 'lamps'] as const,
  lampPage: (query: LampPageQuery) => ['lighting', 'lamps', query] as const,
  /** Outside 'lamps', whose entries are all list pages. */
  lampDetail: (id: number) => ['lighting', 'lampDetail', id] as const,
};

/** The lamp list's route; its total for a region is what a region-wide lamp command reaches. */
export const LAMP_PAGE_PATH = '/light/lampPage';

export function useLampPage(query: LampPageQuery) {
  return useQuery({
    queryKey: lightingKeys.lampPage(query),
    queryFn: ({ signal }) => post<PageResult<LampRow>>(LAMP_PAGE_PATH, query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useSaveLamp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: LampAddOrEditRequest) => post<{ id: number; mqtt?: MqttCredentials }>('/light/lampAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lightingKeys.lamps }),
  });
}

export function useDeleteLamp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/light/lampDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: lightingKeys.lamps }),
  });
}

export function useLampControl() {
  return useMutation({ mutationFn: (body: LampControlRequest) => post<LampControlResult>('/light/lampControl', body) });
}

/** Describes a lamp dispatch in the dispatch panel: its action, with the level of a dim. */
export function describeLampDispatch(t: TFunction, detail: DispatchDetail): string {
  const level = (detail.params as { level?: number } | null)?.level;
  return t(`lighting:dispatch.action.${detail.action}`, { level });
}

/** Keeps the lamp pages' rows (and an open lamp's details) live without polling. */
export function useLiveLamps(): void {
  useLiveRows<LampRow>(DeviceFamily.Lamp, lightingKeys.lamps, LIVE_LAMPS);
}

const LIVE_LAMPS = { detailKey: lightingKeys.lampDetail };
