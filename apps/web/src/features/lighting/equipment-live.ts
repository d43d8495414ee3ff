import { useCallback } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { DeviceFamily, type DeviceStateChangedEvent, type GatewayRow, type PageResult } from '@sc/contracts';
import { useSocketEvent } from '@/realtime/use-socket';
import { equipmentKeys } from './equipment-api';

/** Writes a gateway's changed fields (its MQTT state or Last Will, through the lighting worker) into the cached pages. */
export function patchGatewayRows(queryClient: QueryClient, event: DeviceStateChangedEvent): void {
  queryClient.setQueriesData<PageResult<GatewayRow>>({ queryKey: [...equipmentKeys.gateways, 'page'] }, (page) => {
    if (!page || !page.list.some((row) => row.id === event.recordId)) return page;
    return { ...page, list: page.list.map((row) => (row.id === event.recordId ? { ...row, ...(event.changed as Partial<GatewayRow>) } : row)) };
  });
}

/** Gateways go online and offline live, like lamps (useLiveLighting reloads everything after a reconnect). */
export function useLiveGateways(): void {
  const queryClient = useQueryClient();
  useSocketEvent(
    'DeviceStateChanged',
    useCallback(
      (event: DeviceStateChangedEvent) => {
        if (event.family === DeviceFamily.LampGateway) patchGatewayRows(queryClient, event);
      },
      [queryClient],
    ),
  );
}
