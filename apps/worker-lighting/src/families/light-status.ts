import { LampStatus, OnlineState, type FaultCode } from '@sc/contracts';

/**
 * The status rules single lamps and strip lights share (spec section 4's lamp statuses): a dispatch's outcome stays
 * shown until the next dispatch, a Last Will makes the device offline, and fault reports keep a sorted set of codes.
 */

/** Statuses a dispatch set: a device's own report does not clear them, the next dispatch does. */
export const DISPATCH_STATUSES: readonly LampStatus[] = [LampStatus.Distributing, LampStatus.DistributionFailed, LampStatus.DistributionSucceeded];

/** The status an online report leaves: a dispatch status stays, anything else becomes normal. */
export function reportedStatus(current: LampStatus): LampStatus {
  return DISPATCH_STATUSES.includes(current) ? current : LampStatus.Normal;
}

/** A device whose Last Will arrived. */
export function offline<T extends { networkStatus: OnlineState; status: LampStatus }>(device: T): T {
  return { ...device, networkStatus: OnlineState.Offline, status: LampStatus.Offline };
}

/** The active fault codes after a fault was raised or cleared, sorted, each once. */
export function withFault(faults: readonly FaultCode[], code: FaultCode, active: boolean): FaultCode[] {
  const without = faults.filter((c) => c !== code);
  return active ? [...without, code].sort((a, b) => a - b) : without;
}
