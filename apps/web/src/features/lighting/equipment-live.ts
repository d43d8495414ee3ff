import { DeviceFamily, type GatewayRow } from '@sc/contracts';
import { useLiveRows } from '@/realtime/live-rows';
import { equipmentKeys } from './equipment-api';

const GATEWAY_PAGES = [...equipmentKeys.gateways, 'page'] as const;

/** Gateways go online and offline live (their MQTT state and Last Will, through the lighting worker), like lamps. */
export function useLiveGateways(): void {
  useLiveRows<GatewayRow>(DeviceFamily.LampGateway, GATEWAY_PAGES);
}
