import type { PoolClient } from 'pg';
import type { CommandMessage, DeviceFamily, DeviceType, FaultCode } from '@sc/contracts';

/** Something that happened to a device of any family, in the order it happened (`at`: when the message arrived). */
export type CommonDeviceEvent = { kind: 'fault'; code: FaultCode; active: boolean; at: string } | { kind: 'distributing' } | { kind: 'failed' };

/**
 * A device family the lighting worker serves beside single lamps (strip lights so far): how its `state` and
 * `telemetry` payloads read, what its dispatches send and leave behind, and how its stored rows change. The intake,
 * the command sender and the tracker handle every family through this, so a family adds no copy of them.
 */
export interface FamilyStore<Event extends { kind: string } = { kind: string }> {
  readonly family: DeviceFamily;
  /** The registry type of its devices (device.type), for looking codes up. */
  readonly deviceType: DeviceType;
  /** A `state` or `telemetry` payload as an event; null when malformed. */
  parse(channel: 'state' | 'telemetry', payload: Buffer, at: string): Event | null;
  /** The command a dispatch sends, without id and expiry; null when the devices cannot run it. */
  commandOf(action: string, params: unknown): Pick<CommandMessage, 'type' | 'params'> | null;
  /** What a delivered command leaves on the device. */
  delivered(action: string, params: unknown): Event;
  /** Applies the events in the caller's transaction; answers the publishing to do after the commit. */
  apply(client: PoolClient, events: ReadonlyMap<number, readonly (Event | CommonDeviceEvent)[]>): Promise<() => void>;
}
