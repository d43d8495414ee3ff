import type { PageQuery } from './envelope';

export enum OperationStatus {
  Success = 'success',
  Failure = 'failure',
}

export interface OperationLogRow {
  id: number;
  description: string;
  methodName: string;
  requestParams: unknown;
  operator: string;
  operationIp: string;
  operationTime: string;
  status: OperationStatus;
  errorMessage: string | null;
  durationMs: number;
}

export interface OperationLogQuery extends PageQuery {
  operator?: string;
  status?: OperationStatus;
  startTime?: string;
  endTime?: string;
  description?: string;
}

/**
 * Every audited action, by the English description the operation log records (the gateway's @Audit label), with the
 * key of its label in the console's four languages (system:log.actions). @Audit accepts only these.
 */
export const AUDITED_ACTIONS = {
  'Sign in': 'signIn',
  'Sign out': 'signOut',
  'Change own password': 'changeOwnPassword',
  'Create user': 'createUser',
  'Update user': 'updateUser',
  'Save permission group': 'saveGroup',
  'Delete permission group': 'deleteGroup',
  'Create region': 'createRegion',
  'Edit region': 'editRegion',
  'Delete region': 'deleteRegion',
  'Acknowledge alarms': 'acknowledgeAlarms',
  'Add lamp pole group': 'addPoleGroup',
  'Bind lamp to gateway': 'bindLampToGateway',
  'Clear alarms': 'clearAlarms',
  'Control lamps': 'controlLamps',
  'Delete device group': 'deleteDeviceGroup',
  'Delete lamp': 'deleteLamp',
  'Delete lamp gateway': 'deleteGateway',
  'Delete lamp loop': 'deleteLoop',
  'Delete lamp pole': 'deletePole',
  'Delete lamp strategy': 'deleteLampStrategy',
  'Delete lamps': 'deleteLamps',
  'Delete strip light': 'deleteStrip',
  'Delete strip light strategy': 'deleteStripStrategy',
  'Distribute lamp strategy': 'distributeLampStrategy',
  'Distribute strip light strategy': 'distributeStripStrategy',
  'Edit lamp MQTT identity': 'editLampMqtt',
  'Renew device MQTT credentials': 'renewDeviceMqtt',
  'Import lamp gateways': 'importGateways',
  'Import lamp loops': 'importLoops',
  'Import lamp poles': 'importPoles',
  'Import lamps': 'importLamps',
  'Mount devices on a lamp pole': 'mountOnPole',
  'Move devices to another group': 'moveToGroup',
  'Move lamps to another gateway': 'moveToGateway',
  'Retry failed commands': 'retryFailed',
  'Save device group': 'saveDeviceGroup',
  'Save lamp': 'saveLamp',
  'Save lamp gateway': 'saveGateway',
  'Save lamp loop': 'saveLoop',
  'Save lamp pole': 'savePole',
  'Save lamp strategy': 'saveLampStrategy',
  'Save strip light': 'saveStrip',
  'Save strip light strategy': 'saveStripStrategy',
  'Set lamp rated power': 'setRatedPower',
  'Strip light effect': 'stripEffect',
  'Unmount devices from a lamp pole': 'unmountFromPole',
  'Save broadcast terminal': 'saveTerminal',
  'Delete broadcast terminal': 'deleteTerminal',
  'Set terminal volume': 'setTerminalVolume',
  'Control terminal playback': 'controlTerminalPlayback',
} as const;

export type AuditDescription = keyof typeof AUDITED_ACTIONS;
