import type { PoolClient } from 'pg';
import type { CommandMessage, FamilyDeclaration, FamilyLiveFields, FamilyName, ReportChannel } from '@sc/contracts';

/**
 * What happens to one device, in the order it happened. The runtime makes every event: reports are the device's
 * own messages after the declared schema accepted them; the others come from the command ledger and the broker.
 */
export type DeviceEvent<Reports extends Partial<Record<ReportChannel, unknown>> = Partial<Record<ReportChannel, unknown>>> =
  | { [C in keyof Reports & ReportChannel]: { kind: 'report'; channel: C; report: NonNullable<Reports[C]>; at: string } }[keyof Reports &
      ReportChannel]
  /**
   * The device's Last Will (or a device leaving on purpose): `{ "online": false }` on its state topic. Or, with
   * `silentSince`, the platform taking a device as offline because it has reported nothing since then (SilenceSweep);
   * the runtime drops that one when the device has reported after `silentSince`, before the families see it.
   */
  | { kind: 'offline'; at: string; silentSince?: string }
  /** A command of this dispatch action went out to the device. */
  | { kind: 'sending'; action: string }
  /** The device acknowledged the command (delivered), refused it, or it expired unanswered (not delivered). */
  | { kind: 'answered'; action: string; params: unknown; delivered: boolean };

/** Column types the row store reads and writes. */
export type ColumnType = 'smallint' | 'int' | 'float8' | 'boolean' | 'text' | 'jsonb' | 'timestamptz' | 'smallint[]';

/** Where one live field is stored in the family's table. */
export interface ColumnSpec {
  column: string;
  type: ColumnType;
}

/** A command's type and params, without its id and expiry (the ledger gives those). */
export type CommandBody = Pick<CommandMessage, 'type' | 'params'>;

/**
 * The part of a device family only the family knows, handed to the device runtime with startDeviceWorker: how its
 * stored fields change with each event (spec section 4's status rules for lamps), how its columns are named, and
 * what each dispatch action sends. Parsing, known devices, the ledger, batching, re-sends, expiry, progress and
 * the live events are the runtime's.
 *
 * `Derived` names live fields that are not stored but computed from the stored ones (a strip's status labels): the
 * runtime computes them before and after each write and announces them when they change.
 */
export interface FamilyHandler<
  F extends FamilyName = FamilyName,
  Reports extends Partial<Record<ReportChannel, unknown>> = never,
  Derived extends keyof FamilyLiveFields[F] = never,
> {
  readonly declaration: FamilyDeclaration & { family: F };
  /** Every stored live field of the declaration, with its column. */
  readonly columns: { readonly [K in Exclude<keyof FamilyLiveFields[F], Derived>]-?: ColumnSpec };
  /** The stored fields after one event. Pure: the runtime compares before and after to find what changed. */
  reduce(fields: StoredFields<F, Derived>, event: DeviceEvent<Reports>): StoredFields<F, Derived>;
  /** The derived live fields of stored ones. */
  derive?(fields: StoredFields<F, Derived>): Pick<FamilyLiveFields[F], Derived>;
  /** The command a dispatch row sends; null for an action or params its devices cannot run (the row fails). */
  command?(action: string, params: unknown): CommandBody | null;
}

/** The live fields a family stores. */
export type StoredFields<F extends FamilyName, Derived extends keyof FamilyLiveFields[F] = never> = Omit<FamilyLiveFields[F], Derived>;

/** Any family's handler, as the runtime holds them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFamilyHandler = FamilyHandler<any, any, any>;

/** One device whose stored fields a write changed. */
export interface RowChange<F extends FamilyName = FamilyName> {
  recordId: number;
  deviceCode: string;
  /** The fields before the write, and only those that differ after it. */
  before: FamilyLiveFields[F];
  changed: Partial<FamilyLiveFields[F]>;
}

/**
 * Something a worker writes beside a family's rows, in the same transaction (lighting's alarms from fault reports,
 * energy from power readings, day-burning checks): it sees every change of its family and the events behind them,
 * and answers what to publish once the transaction has committed.
 */
export interface ChangeObserver<F extends FamilyName = FamilyName> {
  readonly family: F;
  observe(client: PoolClient, changes: readonly RowChange<F>[], events: ReadonlyMap<number, readonly DeviceEvent[]>): Promise<(() => void) | void>;
  start?(): void;
  stop?(): Promise<void>;
}
