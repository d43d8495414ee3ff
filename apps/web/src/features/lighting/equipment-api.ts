import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeviceGroupAddOrEditRequest,
  DeviceGroupMoveRequest,
  DeviceGroupMoveResult,
  DeviceGroupRow,
  GatewayAddOrEditRequest,
  GatewayOption,
  GatewayPageQuery,
  GatewayRow,
  LampBatchUpdateGatewayRequest,
  LampBindGatewayRequest,
  LampEditMqttRequest,
  MqttCredentials,
  LampRow,
  LightingGroupType,
  LoopAddOrEditRequest,
  LoopOption,
  LoopPageQuery,
  LoopRow,
  PageResult,
} from '@sc/contracts';
import { get, post } from '@/api/request';
import { lightingKeys } from './api';

/** Gateways, loops and groups live under the lighting keys, so a reconnect (which reloads 'lighting') refreshes them too. */
export const equipmentKeys = {
  gateways: ['lighting', 'gateways'] as const,
  gatewayPage: (q: GatewayPageQuery) => ['lighting', 'gateways', 'page', q] as const,
  gatewayOptions: ['lighting', 'gateways', 'options'] as const,
  loops: ['lighting', 'loops'] as const,
  loopPage: (q: LoopPageQuery) => ['lighting', 'loops', 'page', q] as const,
  loopOptions: (gatewayId: string) => ['lighting', 'loops', 'options', gatewayId] as const,
  groups: (type: LightingGroupType) => ['lighting', 'groups', type] as const,
  lampDetail: (id: number) => lightingKeys.lampDetail(id),
};

/** After a change to the equipment every list may show it: lamps count per gateway, loop and group. */
function useInvalidateEquipment() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: lightingKeys.all });
}

export function useGatewayPage(query: GatewayPageQuery) {
  return useQuery({
    queryKey: equipmentKeys.gatewayPage(query),
    queryFn: ({ signal }) => post<PageResult<GatewayRow>>('/light/gatewayPage', query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useGatewayOptions(enabled = true) {
  return useQuery({
    queryKey: equipmentKeys.gatewayOptions,
    queryFn: ({ signal }) => get<GatewayOption[]>('/light/gatewayList', undefined, { signal }),
    enabled,
    staleTime: 60_000,
  });
}

export function useLoopPage(query: LoopPageQuery) {
  return useQuery({
    queryKey: equipmentKeys.loopPage(query),
    queryFn: ({ signal }) => post<PageResult<LoopRow>>('/light/loopPage', query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });
}

export function useLoopOptions(gatewayId: string | null) {
  return useQuery({
    queryKey: equipmentKeys.loopOptions(gatewayId ?? ''),
    queryFn: ({ signal }) => get<LoopOption[]>('/light/loopList', { gatewayId: gatewayId! }, { signal }),
    enabled: Boolean(gatewayId),
    staleTime: 60_000,
  });
}

export function useGroups(type: LightingGroupType, enabled = true) {
  return useQuery({
    queryKey: equipmentKeys.groups(type),
    queryFn: ({ signal }) => get<DeviceGroupRow[]>('/light/groupList', { type }, { signal }),
    enabled,
    staleTime: Infinity,
  });
}

export function useLampDetail(id: number | null) {
  return useQuery({
    queryKey: equipmentKeys.lampDetail(id ?? 0),
    queryFn: ({ signal }) => get<LampRow>('/light/lampDetail', { id: id! }, { signal }),
    enabled: id !== null,
    staleTime: Infinity,
  });
}

/** A mutation that refreshes every equipment list once it succeeds. */
function useEquipmentMutation<Body, Answer>(call: (body: Body) => Promise<Answer>) {
  const invalidate = useInvalidateEquipment();
  return useMutation({ mutationFn: call, onSuccess: () => invalidate() });
}

export const useSaveGateway = () => useEquipmentMutation((b: GatewayAddOrEditRequest) => post<{ id: number }>('/light/gatewayAddOrEdit', b));
export const useDeleteGateway = () => useEquipmentMutation((id: number) => get<null>('/light/gatewayDel', { id }));
export const useSaveLoop = () => useEquipmentMutation((b: LoopAddOrEditRequest) => post<{ id: number }>('/light/loopAddOrEdit', b));
export const useDeleteLoop = () => useEquipmentMutation((id: number) => get<null>('/light/loopDel', { id }));
export const useSaveGroup = () => useEquipmentMutation((b: DeviceGroupAddOrEditRequest) => post<{ id: number }>('/light/groupAddOrEdit', b));
export const useDeleteGroup = () =>
  useEquipmentMutation((g: { id: number; type: LightingGroupType }) => get<null>('/light/groupDel', { id: g.id, type: g.type }));
export const useMoveToGroup = () => useEquipmentMutation((b: DeviceGroupMoveRequest) => post<DeviceGroupMoveResult>('/light/groupMove', b));
export const useEditMqtt = () => useEquipmentMutation((b: LampEditMqttRequest) => post<{ mqtt?: MqttCredentials }>('/light/lampEditMqtt', b));
export const useBindGateway = () => useEquipmentMutation((b: LampBindGatewayRequest) => post<null>('/light/lampBindGateway', b));
export const useBatchUpdateGateway = () =>
  useEquipmentMutation((b: LampBatchUpdateGatewayRequest) => post<{ updated: number }>('/light/lampBatchUpdateGateway', b));
export const useBatchDeleteLamps = () => useEquipmentMutation((ids: number[]) => post<{ deleted: number }>('/light/lampBatchDel', { ids }));
