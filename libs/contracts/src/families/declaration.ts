import type { JSONSchema } from 'json-schema-to-ts';
import { NUMBER_BOUNDS } from '../bounds';
import type { AlarmKind } from '../alarms';
import { FaultCode, type DeviceType } from '../devices';
import type { DeviceFamily, MqttService } from '../mqtt';
import type { JobName, QueueName } from '../queues';
import type { Button, Role } from '../roles';

/** A JSON Schema literal (`as const`), from which the payload's TypeScript type is derived with FromSchema. */
export type JsonSchema = Exclude<JSONSchema, boolean>;

/** Device → platform channels whose payloads a family declares (acks are the same for every family). */
export type ReportChannel = 'state' | 'telemetry' | 'event';

/** One command type a family's devices take on `cmd`: the schema of its `params`, and what it does. */
export interface CommandDeclaration {
  readonly description: string;
  readonly params: JsonSchema;
  /**
   * The device answers with receipts (RECEIPT_SCHEMA: received, downloading with bytes) while it fetches what the
   * command names, and acks only once it holds all of it: its ledger row stays open until then, a receipt keeps it
   * from being re-sent, and the console follows every row's receive status live.
   */
  readonly receipts?: boolean;
}

/**
 * An alarm the device runtime raises from a family's live fields on every change: when one of `fields` reaches
 * `raiseAt` (from below), and clears when every one of them is below `clearBelow` again (from at or above it), so a
 * value hovering at the limit does not raise and clear on every report.
 */
export interface ThresholdAlarmDeclaration {
  readonly kind: AlarmKind;
  /** Numeric live fields of the family. */
  readonly fields: readonly string[];
  readonly raiseAt: number;
  readonly clearBelow: number;
}

/** The alarms the device runtime raises for a family, beside those its worker raises itself (lamp faults). */
export interface FamilyAlarmsDeclaration {
  /**
   * An `offline` alarm while a device is offline (its Last Will, or silent for three heartbeats), cleared when it
   * reports again. On unless a family says false (a device that is offline by design).
   */
  readonly offline?: boolean;
  readonly thresholds?: readonly ThresholdAlarmDeclaration[];
}

/**
 * Everything about a device family that more than one part of the product needs, declared once: the gateway derives
 * its control buttons, event rooms and queue hand-over from it, the device runtime its subscriptions, known devices
 * and commands, the browser its live fields, and docs/asyncapi.yaml its channels and messages.
 *
 * defineFamily ties a declaration to the family's list row (LampRow for lamps): the live fields name its
 * properties, so the events that carry them (DeviceStateChanged) are typed per family.
 */
export interface FamilyDeclaration {
  /** The MQTT family: the `{family}` level of the device's topics. */
  readonly family: DeviceFamily;
  /** What one device of the family is called, in English (documentation, logs). */
  readonly title: string;
  /** The registry type (`device.type`) of its devices; null for devices with records of their own (lamp gateways). */
  readonly deviceType: DeviceType | null;
  /**
   * The family's table, one row per device: keyed by `device_id` when the devices are in the registry, else by its
   * own `id` with the device code in `code`.
   */
  readonly table: string;
  /** The worker service that hosts the family: its MQTT account reads what the family reports and sends its commands. */
  readonly worker: MqttService;
  /** The work queue and job that hand its dispatches to its worker; null for families that take no commands. */
  readonly queue: QueueName | null;
  readonly job: JobName | null;
  /** The control actions (dispatch actions) the console may send, each with the button it needs (spec section 6). */
  readonly actions: Readonly<Record<string, Button>>;
  /** Roles that receive the family's live events, besides administrators (the roles that may open its pages). */
  readonly eventRoles: readonly Role[];
  /** The row fields that devices and dispatches change: what DeviceStateChanged may carry. */
  readonly liveFields: readonly string[];
  /** Payload schemas of what its devices report; a device's Last Will (`{ "online": false }`) is common to all. */
  readonly reports: Readonly<Partial<Record<ReportChannel, JsonSchema>>>;
  /** The command types its devices take, by `type`. */
  readonly commands: Readonly<Record<string, CommandDeclaration>>;
  /**
   * A connected device reports (on any channel) at least this often, seconds: it sends its `state` again when it has
   * had nothing else to say for this long. One silent for SILENT_AFTER_HEARTBEATS heartbeats is taken as offline, as
   * if its Last Will had come (a device that vanished without one, behind a broker restart, or a stale stored state).
   */
  readonly heartbeatSeconds: number;
  /** Alarms the runtime raises for its devices (offline by default; familyAlarms reads them). */
  readonly alarms?: FamilyAlarmsDeclaration;
}

/** The runtime's alarms of a family: offline unless it opted out, and its declared thresholds. */
export function familyAlarms(declaration: FamilyDeclaration): { offline: boolean; thresholds: readonly ThresholdAlarmDeclaration[] } {
  return { offline: declaration.alarms?.offline ?? true, thresholds: declaration.alarms?.thresholds ?? [] };
}

/** Heartbeats a device may miss before the platform takes it as offline. */
export const SILENT_AFTER_HEARTBEATS = 3;

/** A declaration tied to its list row type (a type only: nothing is stored). */
export interface RowTyped<Row> {
  readonly liveFields: readonly (keyof Row & string)[];
  readonly rowType?: Row;
}

/** The row type a declaration names. */
export type RowOf<D> = D extends RowTyped<infer Row> ? Row : never;

/** The fields a family's DeviceStateChanged may carry. */
export type LiveFieldsOf<D extends FamilyDeclaration> = Pick<RowOf<D>, D['liveFields'][number] & keyof RowOf<D>>;

/**
 * Declares a family, checking it against FamilyDeclaration while keeping its literal types (the live field names,
 * the action names). Called as `defineFamily<LampRow>()({ ... })`.
 */
export function defineFamily<Row>() {
  return <const D extends FamilyDeclaration & RowTyped<Row>>(declaration: D): D & RowTyped<Row> => declaration;
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas every family shares.

/** Device codes are one topic level and part of the device's MQTT username (DEVICE_CODE_PATTERN). */
export const DEVICE_CODE_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' } as const satisfies JsonSchema;

/** A hardware or software version a device reports. */
export const VERSION_SCHEMA = { type: 'string', maxLength: 32 } as const satisfies JsonSchema;

/** A volume a device reports or is given, percent (broadcast terminals, floor screens). */
export const VOLUME_SCHEMA = {
  type: 'integer',
  minimum: NUMBER_BOUNDS.volume.min,
  maximum: NUMBER_BOUNDS.volume.max,
  description: 'Percent.',
} as const satisfies JsonSchema;

/** The params of a command that takes none. */
export const NO_PARAMS_SCHEMA = { type: 'object', additionalProperties: false, properties: {} } as const satisfies JsonSchema;

/** A local time of day of the device's clock (a schedule's period bound). */
export const CLOCK_SCHEMA = {
  type: 'string',
  pattern: '^([01]\\d|2[0-3]):[0-5]\\d$',
  description: "Local 'HH:mm' of the device's clock.",
} as const satisfies JsonSchema;

/** A calendar day of a schedule. */
export const DATE_SCHEMA = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: "'yyyy-MM-dd'" } as const satisfies JsonSchema;

/** ISO 8601 time of a reading or an event. */
export const TIMESTAMP_SCHEMA = { type: 'string', format: 'date-time', maxLength: 40 } as const satisfies JsonSchema;

/** What the broker publishes for a device that dropped off (its Last Will), and what a device sends before it leaves. */
export const OFFLINE_SCHEMA = {
  title: 'Offline',
  description: 'The Last Will, or a device leaving on purpose (retained, on `state`).',
  type: 'object',
  required: ['online'],
  properties: { online: { const: false } },
} as const satisfies JsonSchema;

const COMMAND_ID_SCHEMA = { type: 'string', format: 'uuid', description: 'The command id answered.' } as const satisfies JsonSchema;

/** `ack`: the device's answer to one command id (every family). */
export const ACK_SCHEMA = {
  title: 'Ack',
  type: 'object',
  required: ['id', 'ok'],
  properties: {
    id: COMMAND_ID_SCHEMA,
    ok: { type: 'boolean' },
    error: {
      type: 'string',
      description: 'Why the command was not applied (for example `expired`, `bad command`, `driver fault`); kept to 255 characters.',
    },
  },
} as const satisfies JsonSchema;

/** How far a device has got with a command that names files to fetch (CommandDeclaration.receipts). */
export const RECEIPT_STAGES = ['received', 'downloading'] as const;
export type ReceiptStage = (typeof RECEIPT_STAGES)[number];

/**
 * `ack` before the ack, for commands declared with receipts: the device has the command (`received`), or is fetching
 * its files (`downloading`, with bytes so far of the total). Its final answer is an Ack: ok once every file is in and
 * checked, or not ok with the reason.
 */
export const RECEIPT_SCHEMA = {
  title: 'Receipt',
  type: 'object',
  required: ['id', 'receipt'],
  properties: {
    id: COMMAND_ID_SCHEMA,
    receipt: {
      type: 'object',
      required: ['stage'],
      properties: {
        stage: { type: 'string', enum: [...RECEIPT_STAGES] },
        received: { type: 'integer', minimum: 0, maximum: 1e12, description: 'Bytes in so far, over every file of the command.' },
        total: { type: 'integer', minimum: 0, maximum: 1e12, description: 'Bytes of every file of the command.' },
      },
    },
  },
} as const satisfies JsonSchema;

/** The envelope of every command: the `params` schema comes from the family's command declarations. */
export function commandEnvelopeSchema(type: string, params: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['id', 'type', 'params', 'expiresAt'],
    additionalProperties: false,
    properties: {
      id: { type: 'string', format: 'uuid', description: 'Command id; the device applies it at most once.' },
      type: { const: type },
      params,
      expiresAt: {
        type: 'string',
        format: 'date-time',
        description: 'The device ignores the command after this time and acks it with `ok: false`, `error: "expired"`.',
      },
    },
  };
}

/** `event`: a fault of spec section 3 (codes 1 to 8), raised or cleared; lamps and strip lights report them. */
export const FAULT_EVENT_SCHEMA = {
  title: 'Fault',
  type: 'object',
  required: ['ts', 'code', 'active'],
  properties: {
    ts: TIMESTAMP_SCHEMA,
    code: {
      type: 'integer',
      enum: [
        FaultCode.VoltageLow,
        FaultCode.VoltageHigh,
        FaultCode.AFlashes,
        FaultCode.ALedFailure,
        FaultCode.TemperatureHigh,
        FaultCode.BFlashes,
        FaultCode.BLedFailure,
        FaultCode.NotGrounded,
      ],
      description: '1 voltage low, 2 voltage high, 3 A flashes, 4 A LED failure, 5 temperature high, 6 B flashes, 7 B LED failure, 8 not grounded.',
    },
    active: { type: 'boolean', description: 'True when the fault is raised, false when it clears.' },
  },
} as const satisfies JsonSchema;
