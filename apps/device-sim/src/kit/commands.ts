import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { AckMessage, CommandMessage, FamilyDeclaration } from '@sc/contracts';

export const BAD_COMMAND = 'bad command';
export const EXPIRED = 'expired';
export const DRIVER_FAULT = 'driver fault';

const MAX_ID_LENGTH = 128;

/** What a device makes of one `cmd` payload. */
export type ReadCommand<C extends CommandMessage = CommandMessage> =
  | { kind: 'command'; command: C; expiresAtMs: number }
  /** Readable id, unusable rest: answered with ok:false 'bad command'. */
  | { kind: 'invalid'; id: string }
  /** No id to answer to: dropped. */
  | { kind: 'unreadable' };

/** A command without its id and expiry, one type at a time. */
export type CommandBody<C extends CommandMessage> = C extends CommandMessage ? Pick<C, 'type' | 'params'> : never;

// One compiler for every family; each declaration's params schemas are compiled once per process.
const ajv = new Ajv({ strict: false, allErrors: false });
addFormats(ajv);
const compiled = new WeakMap<FamilyDeclaration, ReadonlyMap<string, ValidateFunction>>();

function validatorsOf(declaration: FamilyDeclaration): ReadonlyMap<string, ValidateFunction> {
  let validators = compiled.get(declaration);
  if (!validators) {
    validators = new Map(Object.entries(declaration.commands).map(([type, command]) => [type, ajv.compile(command.params)]));
    compiled.set(declaration, validators);
  }
  return validators;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Reads commands as a device of the family: the params are checked against the schemas the family declares in
 * libs/contracts, `refine` adds what a schema cannot say. Any readable id is answered, so the id is only required to
 * be a short string here, not the UUID the platform sends.
 */
export class CommandReader<C extends CommandMessage = CommandMessage> {
  private readonly validators: ReadonlyMap<string, ValidateFunction>;

  constructor(
    declaration: FamilyDeclaration,
    private readonly refine: (command: CommandBody<C>) => boolean = () => true,
  ) {
    this.validators = validatorsOf(declaration);
  }

  read(payload: Buffer | string): ReadCommand<C> {
    let body: unknown;
    try {
      body = JSON.parse(payload.toString());
    } catch {
      return { kind: 'unreadable' };
    }
    if (!isRecord(body) || typeof body.id !== 'string' || body.id.length === 0 || body.id.length > MAX_ID_LENGTH) return { kind: 'unreadable' };
    const { id, type, params, expiresAt } = body;
    const expiresAtMs = typeof expiresAt === 'string' ? Date.parse(expiresAt) : NaN;
    if (Number.isNaN(expiresAtMs) || !this.takes(type, params)) return { kind: 'invalid', id };
    return { kind: 'command', command: { id, type, params, expiresAt } as C, expiresAtMs };
  }

  /** Whether the device would apply a command of this type with these params (a stored schedule, say). */
  takes(type: unknown, params: unknown): boolean {
    const validate = typeof type === 'string' ? this.validators.get(type) : undefined;
    return !!validate && validate(params) && this.refine({ type, params } as CommandBody<C>);
  }
}

/**
 * The answers a device gave to recent command ids, so a redelivered id is acked again with the same answer and never
 * re-applied. An entry may go once its command has expired: a late redelivery is then refused as expired anyway,
 * so at-most-once holds while memory stays bounded by the commands still alive.
 */
export class RecentResults {
  private readonly entries = new Map<string, { ack: AckMessage; keepUntil: number }>();

  constructor(private readonly capacity = 256) {}

  get(id: string): AckMessage | undefined {
    return this.entries.get(id)?.ack;
  }

  remember(ack: AckMessage, keepUntil: number, now: number): void {
    this.entries.set(ack.id, { ack, keepUntil });
    // Ids arrive roughly in expiry order, so pruning from the oldest end is enough.
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.capacity && entry.keepUntil >= now) break;
      if (id === ack.id) break;
      this.entries.delete(id);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
