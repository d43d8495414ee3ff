import { LAMP_GATEWAY_FAMILY, OnlineState, type LampGatewayLiveFields, type LampGatewayStateMessage } from '@sc/contracts';
import type { DeviceEvent, FamilyHandler } from '@sc/device-runtime';

export type LampGatewayEvent = DeviceEvent<{ state: LampGatewayStateMessage }>;

/** A gateway after one event: online with its versions when it reports, offline on its Last Will (keeping when it last reported). */
export function reduceLampGateway(gateway: LampGatewayLiveFields, event: LampGatewayEvent): LampGatewayLiveFields {
  switch (event.kind) {
    case 'report':
      return {
        networkStatus: OnlineState.Online,
        hardwareVersion: event.report.hardwareVersion ?? gateway.hardwareVersion,
        softwareVersion: event.report.softwareVersion ?? gateway.softwareVersion,
        reportedAt: event.at,
      };
    case 'offline':
      return { ...gateway, networkStatus: OnlineState.Offline };
    default:
      // Gateways take no commands.
      return gateway;
  }
}

/** Lamp gateways on the device runtime: their connection state in their own table, `lamp_gateway`. */
export const lampGatewayHandler: FamilyHandler<typeof LAMP_GATEWAY_FAMILY.family, { state: LampGatewayStateMessage }> = {
  declaration: LAMP_GATEWAY_FAMILY,
  columns: {
    networkStatus: { column: 'network_status', type: 'smallint' },
    hardwareVersion: { column: 'hardware_version', type: 'text' },
    softwareVersion: { column: 'software_version', type: 'text' },
    reportedAt: { column: 'reported_at', type: 'timestamptz' },
  },
  reduce: reduceLampGateway,
};
