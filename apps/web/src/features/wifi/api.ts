import { useCallback, useRef } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DeviceFamily,
  type AcAddOrEditRequest,
  type AcRow,
  type ApAddOrEditRequest,
  type ApPageQuery,
  type ApRow,
  type LampControlResult,
  type MqttCredentials,
  type PageResult,
  type WifiClientPageQuery,
  type WifiClientPoint,
  type WifiClientSeriesRequest,
  type WifiLoadPoint,
  type WifiRegionSeries,
  type WifiClientRow,
  type WifiDevicePageQuery,
  type WifiSelection,
  type WifiSessionPageQuery,
  type WifiSessionRow,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { useLiveRows } from '@/realtime/live-rows';
import { reloadQueries } from '@/realtime/reload';
import { useLiveFeed } from '@/realtime/use-socket';

/** Access controllers (`ac`) or access points (`ap`): the same calls under their own names. */
export type WifiKind = 'ac' | 'ap';

export const wifiKeys = {
  devices: (kind: WifiKind) => ['wifi', kind] as const,
  page: (kind: WifiKind, query: WifiDevicePageQuery | ApPageQuery) => ['wifi', kind, 'page', query] as const,
  detail: (kind: WifiKind) => (id: number) => ['wifi', kind, 'detail', id] as const,
  online: ['wifi', 'online'] as const,
  history: ['wifi', 'history'] as const,
};

/** The list's route of each kind; its total for a region is what a region-wide reboot reaches. */
export const WIFI_PAGE_PATH: Record<WifiKind, string> = { ac: '/wifi/acPage', ap: '/wifi/apPage' };

type RowOf<K extends WifiKind> = K extends 'ac' ? AcRow : ApRow;

export function useWifiPage<K extends WifiKind>(kind: K, query: WifiDevicePageQuery | ApPageQuery) {
  return useQuery({
    queryKey: wifiKeys.page(kind, query),
    queryFn: ({ signal }) => post<PageResult<RowOf<K>>>(WIFI_PAGE_PATH[kind], query, { signal }),
    placeholderData: keepPreviousData,
    // Live events keep the rows current; the list is fetched again only when asked or after a reconnect.
    staleTime: Infinity,
  });
}

/** Every controller, for the access point form and filters (a city has tens of them). */
export function useAcOptions() {
  return useQuery({
    queryKey: ['wifi', 'ac', 'options'],
    queryFn: ({ signal }) => post<PageResult<AcRow>>(WIFI_PAGE_PATH.ac, { pageNum: 1, pageSize: 200 }, { signal }),
    select: (page) => page.list.map((ac) => ({ value: String(ac.id), label: `${ac.devName} (${ac.devSN})` })),
    staleTime: 60_000,
  });
}

export function useSaveWifiDevice(kind: WifiKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AcAddOrEditRequest | ApAddOrEditRequest) => post<{ id: number; mqtt?: MqttCredentials }>(`/wifi/${kind}AddOrEdit`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['wifi'] }),
  });
}

export function useDeleteWifiDevice(kind: WifiKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => get<null>(`/wifi/${kind}Del`, { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['wifi'] }),
  });
}

/** A reboot through the command ledger (its dispatch followed on the page). */
export function useWifiReboot(kind: WifiKind) {
  return useMutation({ mutationFn: (body: WifiSelection) => post<LampControlResult>(`/wifi/${kind}Reboot`, body) });
}

const FAMILY: Record<WifiKind, DeviceFamily.AccessController | DeviceFamily.AccessPoint> = {
  ac: DeviceFamily.AccessController,
  ap: DeviceFamily.AccessPoint,
};
const LIVE = { ac: { detailKey: wifiKeys.detail('ac') }, ap: { detailKey: wifiKeys.detail('ap') } };

/** Keeps a device list live without polling: online or offline, CPU, memory and disk ratios, clients, heartbeat. */
export function useLiveWifi(kind: WifiKind): void {
  useLiveRows<AcRow | ApRow>(FAMILY[kind], wifiKeys.devices(kind), LIVE[kind]);
}

export function useOnlineClients(query: WifiClientPageQuery, enabled: boolean) {
  return useQuery({
    queryKey: [...wifiKeys.online, query],
    queryFn: ({ signal }) => post<PageResult<WifiClientRow>>('/wifi/terminalOnlinePage', query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useSessionHistory(query: WifiSessionPageQuery, enabled: boolean) {
  return useQuery({
    queryKey: [...wifiKeys.history, query],
    queryFn: ({ signal }) => post<PageResult<WifiSessionRow>>('/wifi/terminalHistoryPage', query, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** The charts' points are steps of 15 minutes: read again every minute, as the samples are minutes. */
const SERIES_REFRESH_MS = 60_000;

/** At most one reload of the client lists this often, however many access points report a change. */
const CLIENT_RELOAD_MS = 2000;

/**
 * Keeps the client tabs current without polling: an access point's client count moves when a client joins or leaves
 * (its live event), and the lists shown are then read again, at most once per CLIENT_RELOAD_MS.
 */
export function useLiveClients(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = useCallback(() => {
    void reloadQueries(queryClient, wifiKeys.online);
    void reloadQueries(queryClient, wifiKeys.history);
  }, [queryClient]);
  useLiveFeed(
    'DeviceStateChanged',
    DeviceFamily.AccessPoint,
    useCallback(
      (event) => {
        if (timer.current || !event.changes.some((c) => 'clientCount' in c.changed || 'networkStatus' in c.changed)) return;
        timer.current = setTimeout(() => {
          timer.current = null;
          reload();
        }, CLIENT_RELOAD_MS);
      },
      [reload],
    ),
    reload,
  );
}

/** One device's load over the last day (the chart beside a device list), read again with each of its readings' minutes. */
export function useLoadSeries(kind: WifiKind, id: number | null) {
  return useQuery({
    queryKey: ['wifi', 'loadSeries', kind, id],
    queryFn: ({ signal }) => post<WifiLoadPoint[]>('/wifi/loadSeries', { kind, id }, { signal }),
    enabled: id !== null,
    refetchInterval: SERIES_REFRESH_MS,
  });
}

/** The clients of the selected access points over the last day. */
export function useClientSeries(query: WifiClientSeriesRequest) {
  return useQuery({
    queryKey: ['wifi', 'clientSeries', query],
    queryFn: ({ signal }) => post<WifiClientPoint[]>('/wifi/clientSeries', query, { signal }),
    placeholderData: keepPreviousData,
    refetchInterval: SERIES_REFRESH_MS,
  });
}

/** The clients of several regions side by side over the last day (none asked while no region is chosen). */
export function useRegionClientSeries(regionIds: number[]) {
  return useQuery({
    queryKey: ['wifi', 'regionClientSeries', regionIds],
    queryFn: ({ signal }) => post<WifiRegionSeries>('/wifi/regionClientSeries', { regionIds }, { signal }),
    enabled: regionIds.length > 0,
    placeholderData: keepPreviousData,
    refetchInterval: SERIES_REFRESH_MS,
  });
}
