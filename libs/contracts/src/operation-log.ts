import type { PageQuery } from './envelope';

export enum OperationStatus {
  Success = 'success',
  Failure = 'failure',
}

/** The console's modules, as the operation log files each call (by the first segment of its API path). */
export enum OperationModule {
  System = 'system',
  Lighting = 'lighting',
  Broadcast = 'broadcast',
  Led = 'led',
  Signage = 'signage',
}

export const OPERATION_MODULES: readonly OperationModule[] = Object.values(OperationModule);

/**
 * The modules of devices, whose logs their operators (editors) read too (POST /api/log/modulePage); the system's
 * (users, groups, regions, broker accounts) stays the administrators'.
 */
export const DEVICE_OPERATION_MODULES: readonly OperationModule[] = OPERATION_MODULES.filter((m) => m !== OperationModule.System);

/** The module of each first segment of the API's paths (`/api/<segment>/…`); a segment not here files under none. */
const PATH_MODULES: Readonly<Record<string, OperationModule>> = {
  user: OperationModule.System,
  log: OperationModule.System,
  bi: OperationModule.System,
  mqtt: OperationModule.System,
  light: OperationModule.Lighting,
  lamp: OperationModule.Lighting,
  broadcast: OperationModule.Broadcast,
  led: OperationModule.Led,
  signage: OperationModule.Signage,
};

/** The module of an API path (`/api/signage/deviceAddOrEdit` → signage), or null. */
export function moduleOfPath(path: string): OperationModule | null {
  const segment = /^\/?(?:api\/)?([^/?]+)/.exec(path)?.[1] ?? '';
  return Object.hasOwn(PATH_MODULES, segment) ? PATH_MODULES[segment] : null;
}

export interface OperationLogRow {
  id: number;
  /** The module the call belongs to; null for calls of none (or recorded before modules were). */
  module: OperationModule | null;
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
  module?: OperationModule;
  /** Calls that name this record id (a query or body `id`, or one of the body's `ids`): with a module, a device. */
  deviceId?: number;
}
