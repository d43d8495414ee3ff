import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import {
  ACK_SCHEMA,
  MqttChannel,
  RECEIPT_SCHEMA,
  type AckMessage,
  type FamilyDeclaration,
  type ReceiptMessage,
  type ReportChannel,
} from '@sc/contracts';

/** Larger payloads are refused before JSON.parse, so a misbehaving device cannot make the intake parse megabytes. */
export const MAX_DEVICE_PAYLOAD_BYTES = 8 * 1024;

const MAX_ERROR_LENGTH = 255;

/** What a device's message means, once its payload matched its family's declared schema. */
export type ParsedMessage =
  | { kind: 'ack'; ack: AckMessage }
  | { kind: 'receipt'; receipt: ReceiptMessage }
  | { kind: 'offline' }
  | { kind: 'report'; channel: ReportChannel; report: Record<string, unknown> };

function object(payload: Buffer): Record<string, unknown> | null {
  if (payload.length === 0 || payload.length > MAX_DEVICE_PAYLOAD_BYTES) return null;
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Devices are untrusted: their payloads are checked against the schemas their family declares (libs/contracts) and
 * anything else is refused as malformed. Keys a schema does not name are dropped, so only the contract's fields ever
 * reach the database. Validators are compiled once per process.
 */
export class ReportParser {
  private readonly ajv = new Ajv({ removeAdditional: 'all', allErrors: false, strict: false });
  private readonly ack: ValidateFunction;
  private readonly receipt: ValidateFunction;
  private readonly reports = new Map<string, ValidateFunction>();

  constructor(families: readonly FamilyDeclaration[]) {
    addFormats(this.ajv, ['date-time', 'uuid']);
    this.ack = this.ajv.compile(ACK_SCHEMA);
    this.receipt = this.ajv.compile(RECEIPT_SCHEMA);
    for (const family of families) {
      for (const [channel, schema] of Object.entries(family.reports)) this.reports.set(`${family.family}/${channel}`, this.ajv.compile(schema));
    }
  }

  /** Whether the family reports on this channel at all. */
  reads(family: string, channel: MqttChannel): boolean {
    return channel === MqttChannel.Ack || this.reports.has(`${family}/${channel}`);
  }

  /** The message, or null when the payload is not exactly what the family declares for the channel. */
  parse(family: string, channel: MqttChannel, payload: Buffer): ParsedMessage | null {
    const body = object(payload);
    if (!body) return null;
    if (channel === MqttChannel.Ack) {
      // Before its ack, a device may send receipts for a command declared with them.
      if (body.ok === undefined && this.receipt(body)) {
        const { id, receipt } = body as ReceiptMessage;
        return { kind: 'receipt', receipt: { id: id.toLowerCase(), receipt } };
      }
      if (!this.ack(body)) return null;
      const { id, ok, error } = body as AckMessage;
      return {
        kind: 'ack',
        ack: error === undefined ? { id: id.toLowerCase(), ok } : { id: id.toLowerCase(), ok, error: error.slice(0, MAX_ERROR_LENGTH) },
      };
    }
    // The Last Will of every family (and a device leaving on purpose) is the same on its state topic.
    if (channel === MqttChannel.State && body.online === false) return { kind: 'offline' };
    const validate = this.reports.get(`${family}/${channel}`);
    if (!validate || !validate(body)) return null;
    return { kind: 'report', channel: channel as ReportChannel, report: body };
  }
}
