import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type SignageBindRequest,
  type SignageDeviceAddOrEditRequest,
  type SignageDevicePageQuery,
  type SignageDeviceRow,
  type SignageGroupAddOrEditRequest,
  type SignageGroupRow,
  type SignageMoveRequest,
  type SignageScreenshot,
  type SignageVolumeRequest,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';

export const signageKeys = {
  all: ['signage'] as const,
  devices: ['signage', 'devices'] as const,
  page: (query: SignageDevicePageQuery) => ['signage', 'devices', 'page', query] as const,
  detail: (id: number) => ['signage', 'devices', 'detail', id] as const,
  groups: ['signage', 'groups'] as const,
  screenshot: (deviceId: number, at: string | null) => ['signage', 'screenshot', deviceId, at] as const,
};

/** A page of players; `enabled` false asks nothing (a filter not shown). */
export function useSignagePage(query: SignageDevicePageQuery, enabled = true) {
  return useQuery({
    enabled,
    queryKey: signageKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<SignageDeviceRow>>('/signage/devicePage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useSignageGroups() {
  return useQuery({
    queryKey: signageKeys.groups,
    queryFn: ({ signal }) => get<SignageGroupRow[]>('/signage/groupList', undefined, { signal }),
  });
}

/** A change of players or groups: both lists (a group's counts follow its players). */
function useInvalidateSignage() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: signageKeys.all });
}

export function useSaveSignageDevice() {
  const invalidate = useInvalidateSignage();
  return useMutation({
    mutationFn: (body: SignageDeviceAddOrEditRequest) => post<{ id: number; mqtt?: MqttCredentials }>('/signage/deviceAddOrEdit', body),
    onSuccess: invalidate,
  });
}

export function useDeleteSignageDevice() {
  const invalidate = useInvalidateSignage();
  return useMutation({ mutationFn: (id: number) => get<null>('/signage/deviceDel', { id }), onSuccess: invalidate });
}

export function useSaveSignageGroup() {
  const invalidate = useInvalidateSignage();
  return useMutation({
    mutationFn: (body: SignageGroupAddOrEditRequest) => post<{ id: number }>('/signage/groupAddOrEdit', body),
    onSuccess: invalidate,
  });
}

export function useDeleteSignageGroup() {
  const invalidate = useInvalidateSignage();
  return useMutation({ mutationFn: (id: number) => get<null>('/signage/groupDel', { id }), onSuccess: invalidate });
}

/** Binds players in no group to a group, or (`move`) moves players to another. */
export function useBindSignage() {
  const invalidate = useInvalidateSignage();
  return useMutation({
    mutationFn: ({ move, ...body }: (SignageBindRequest | SignageMoveRequest) & { move: boolean }) =>
      post<null>(move ? '/signage/move' : '/signage/bind', body),
    onSuccess: invalidate,
  });
}

export function useSignageVolume() {
  return useMutation({ mutationFn: (body: SignageVolumeRequest) => post<LampControlResult>('/signage/volume', body) });
}

/** The commands without parameters. */
export type SignagePlainCommand = 'mute' | 'unmute' | 'reboot';

export function useSignageCommand() {
  return useMutation({
    mutationFn: ({ action, ids }: { action: SignagePlainCommand; ids: number[] }) => post<LampControlResult>(`/signage/${action}`, { ids }),
  });
}

/** Asks the players for a screenshot; each uploads its own, and its row's `lastScreenshotAt` moves live when it is in. */
export function useAskScreenshot() {
  return useMutation({ mutationFn: (ids: number[]) => post<LampControlResult>('/signage/screenshot', { ids }) });
}

/** The player's latest screenshot; fetched again when its `lastScreenshotAt` (part of the key) moves. */
export function useLatestScreenshot(deviceId: number, lastScreenshotAt: string | null) {
  return useQuery({
    queryKey: signageKeys.screenshot(deviceId, lastScreenshotAt),
    queryFn: ({ signal }) => get<SignageScreenshot | null>('/signage/screenshot', { deviceId }, { signal }),
    staleTime: Infinity,
  });
}

/** One object for the page's lifetime: the live feed's handler depends on it. */
const LIVE_SIGNAGE = { detailKey: signageKeys.detail };

/** Keeps the player lists live without polling: online/offline, volume, mute, current ad as players report them. */
export function useLiveSignage(): void {
  useLiveRows<SignageDeviceRow>(DeviceFamily.Signage, signageKeys.devices, LIVE_SIGNAGE);
}
