import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type AlarmAnnounceRequest,
  type AlarmAnnounceStopRequest,
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

/** Where the columns are listed: a region's are counted through it before a command to them is confirmed. */
export const ALARM_COLUMN_PAGE_PATH = '/alarm/columnPage';

export function useAlarmColumnPage(query: AlarmColumnPageQuery) {
  return useQuery({
    queryKey: alarmColumnKeys.page(query),
    queryFn: ({ signal }) => post<PageResult<AlarmColumnRow>>(ALARM_COLUMN_PAGE_PATH, query, { signal }),
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

/** Announcements on the columns' speakers and their stop (audioInquiry), through the ledger like reboot and volume. */
export function useAlarmAnnouncements() {
  return {
    announce: useMutation({ mutationFn: (body: AlarmAnnounceRequest) => post<LampControlResult>('/alarm/columnAnnounce', body) }),
    stop: useMutation({ mutationFn: (body: AlarmAnnounceStopRequest) => post<LampControlResult>('/alarm/columnAnnounceStop', body) }),
  };
}

/**
 * Keeps the list live without polling: online or offline, heartbeat, volume and the last press patch the rows as they
 * come (the press itself is announced on every page by the incident layer).
 */
export function useLiveAlarmColumns(): void {
  useLiveRows<AlarmColumnRow>(DeviceFamily.Alarm, alarmColumnKeys.all, { detailKey: alarmColumnKeys.detail });
}
