import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type AlarmColumnAddOrEditRequest,
  type AlarmColumnPageQuery,
  type AlarmColumnRow,
  type AlarmColumnSelection,
  type AlarmColumnVolumeRequest,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';

export const alarmColumnKeys = {
  all: ['alarm-columns'] as const,
  page: (query: AlarmColumnPageQuery) => ['alarm-columns', 'page', query] as const,
  detail: (id: number) => ['alarm-columns', 'detail', id] as const,
};

export function useAlarmColumnPage(query: AlarmColumnPageQuery) {
  return useQuery({
    queryKey: alarmColumnKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<AlarmColumnRow>>('/alarm/columnPage', query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

export function useSaveAlarmColumn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlarmColumnAddOrEditRequest) => post<{ id: number; mqtt?: MqttCredentials }>('/alarm/columnAddOrEdit', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmColumnKeys.all }),
  });
}

export function useDeleteAlarmColumn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>('/alarm/columnDel', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmColumnKeys.all }),
  });
}

/** Reboot and volume through the command ledger (their dispatch followed on the page). */
export function useAlarmColumnCommands() {
  return {
    reboot: useMutation({ mutationFn: (body: AlarmColumnSelection) => post<LampControlResult>('/alarm/columnReboot', body) }),
    volume: useMutation({ mutationFn: (body: AlarmColumnVolumeRequest) => post<LampControlResult>('/alarm/columnVolume', body) }),
  };
}

/**
 * Keeps the list live without polling: online or offline, heartbeat, volume and the last press patch the rows as they
 * come (the press itself is announced on every page by the incident layer).
 */
export function useLiveAlarmColumns(): void {
  useLiveRows<AlarmColumnRow>(DeviceFamily.Alarm, alarmColumnKeys.all, { detailKey: alarmColumnKeys.detail });
}
