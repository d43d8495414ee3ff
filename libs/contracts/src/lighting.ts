import type { DispatchReceipt } from './receipts';
import type { PageQuery } from './envelope';
import type { DimmingLevel, FaultCode, LampStatus, OnlineState, StrategyMode } from './devices';
import type { LampSchedule, StrategyModeData } from './strategy';
import { DispatchStatus } from './statuses';
import type { DeviceFamily } from './mqtt';
import type { LampTelemetryMessage } from './families';

export const LAMP_NAME_MAX = 64;

/** One row of the lamp list (POST /api/light/lampPage). */
export interface LampRow {
  id: number;
  lampName: string;
  clientId: string;
  regionId: number | null;
  regionName: string | null;
  gatewayId: string;
  lampControlId: string;
  addr: string;
  mac: string;
  /** Reported brightness, percent (one of the dimming levels). */
  bri: DimmingLevel;
  /** Reported switch: 1 on, 0 off. */
  switchState: 0 | 1;
  status: LampStatus;
  networkStatus: OnlineState;
  telemetry: LampTelemetryMessage | null;
  /** Active faults (spec section 3 fault codes). */
  faults: FaultCode[];
  hardwareVersion: string;
  softwareVersion: string;
  totalIlluminationHours: number | null;
  /** When the lamp last reported anything. */
  reportedAt: string | null;
  /** The loop of its gateway the lamp is bound to. */
  loopId: number | null;
  loopName: string | null;
  /** The dimming level last commanded (bri is what the lamp reports); null before any dim command. */
  level: DimmingLevel | null;
  /** `#rrggbb`, or '' when the lamp has no colour setting. */
  color: string;
  /** Its device group (type single lamp). */
  groupId: number | null;
  groupName: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The strategy the lamp was last given (its schedule), set when a distribution is delivered. */
  strategyId: number | null;
  strategyName: string | null;
  mode: StrategyMode | null;
  modeData: StrategyModeData | null;
  /** The schedule the lamp holds and runs on its own. */
  jobList: LampSchedule | null;
}

export interface LampPageQuery extends PageQuery {
  lampName?: string;
  regionId?: number;
  status?: LampStatus;
  networkStatus?: OnlineState;
  gatewayId?: string;
  loopId?: number;
  groupId?: number;
}

export interface LampAddOrEditRequest {
  id?: number;
  lampName: string;
  clientId: string;
  regionId?: number | null;
  gatewayId?: string;
  lampControlId?: string;
  addr?: string;
  mac?: string;
  /** null for no group; omitted on edit keeps the current one. */
  groupId?: number | null;
  /** Both or neither; null clears the position. */
  latitude?: number | null;
  longitude?: number | null;
  color?: string;
}

/** 'sync' asks the lamp to report its full state (status -1 until it does). */
export type LampAction = 'on' | 'off' | 'dim' | 'sync';

/** POST /api/light/lampControl: the selected lamps, or every lamp of a region (and its sub-regions). */
export interface LampControlRequest {
  ids?: number[];
  regionId?: number;
  action: LampAction;
  /** Required for dim: one of the dimming levels. */
  level?: DimmingLevel;
}

export interface LampControlResult {
  dispatchId: string;
}

/** The state of one target of a dispatch. */
export enum DispatchItemState {
  Queued = 'queued',
  Sent = 'sent',
  Delivered = 'delivered',
  Failed = 'failed',
  Expired = 'expired',
}

export const TERMINAL_ITEM_STATES: readonly DispatchItemState[] = [DispatchItemState.Delivered, DispatchItemState.Failed, DispatchItemState.Expired];

export type DispatchCounts = Record<DispatchItemState, number>;

export interface DispatchItemRow {
  deviceId: number;
  deviceCode: string;
  deviceName: string;
  state: DispatchItemState;
  attempts: number;
  lastError: string | null;
  updatedAt: string;
  /** The row's last receipt, for a command declared with receipts (null before the first, and for other commands). */
  receipt: DispatchReceipt | null;
}

/**
 * GET /api/dispatch/detail?id=: a dispatch with every row, or with `pageNum` and `pageSize` one page of its rows
 * (ordered by device, optionally only those in `state`): a dispatch to 50,000 devices is followed a page at a time.
 */
export interface DispatchDetailQuery {
  id: string;
  pageNum?: number;
  pageSize?: number;
  state?: DispatchItemState;
}

/** GET /api/dispatch/detail */
export interface DispatchDetail {
  id: string;
  family: DeviceFamily;
  action: string;
  params: unknown;
  status: DispatchStatus;
  counts: DispatchCounts;
  total: number;
  createdBy: string;
  createdAt: string;
  expiresAt: string;
  /** Its rows: all of them, or the page asked for. */
  items: DispatchItemRow[];
  /** How many rows match the query's state (all rows without one): what `items` pages through. */
  itemsTotal: number;
}

/**
 * The batch status of spec section 4 from its rows: to be sent while any row is not terminal; then all successful,
 * all failures, or partially successful.
 */
export function dispatchStatusOf(counts: DispatchCounts): DispatchStatus {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const open = counts.queued + counts.sent;
  if (total === 0 || open > 0) return DispatchStatus.ToBeSent;
  if (counts.delivered === total) return DispatchStatus.AllSuccessful;
  if (counts.delivered === 0) return DispatchStatus.AllFailures;
  return DispatchStatus.PartiallySuccessful;
}
