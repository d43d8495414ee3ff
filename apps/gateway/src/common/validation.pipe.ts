import { ValidationPipe, type ArgumentMetadata, type PipeTransform, type ValidationError } from '@nestjs/common';
import type { MessageKey } from '@sc/i18n';
import { AppException, type FieldProblem } from './app-exception';

/** Decodes `key` or `key::{json}` messages written by the field decorators. */
export function decodeMessage(raw: string): { key: MessageKey; params?: Record<string, unknown> } {
  const at = raw.indexOf('::');
  if (at < 0) return { key: (raw.includes(' ') ? 'invalidValue' : raw) as MessageKey };
  return { key: raw.slice(0, at) as MessageKey, params: JSON.parse(raw.slice(at + 2)) as Record<string, unknown> };
}

function flatten(errors: ValidationError[], prefix = ''): FieldProblem[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own: FieldProblem[] = [];
    if (e.constraints) {
      if (e.constraints.whitelistValidation) {
        own.push({ field, key: 'unexpectedField' });
      } else {
        // One message per field: presence first, then whatever failed first.
        const order = ['isNotEmpty', ...Object.keys(e.constraints).filter((c) => c !== 'isNotEmpty')];
        const name = order.find((c) => e.constraints?.[c]);
        if (name) own.push({ field, ...decodeMessage(e.constraints[name]) });
      }
    }
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

function pipe(forbidUnknown: boolean): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: forbidUnknown,
    transform: true,
    stopAtFirstError: false,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => AppException.badRequest('validationField', {}, flatten(errors)),
  });
}

const MEMO_SIZE = 500;
/** Inputs with secrets are never kept: a password must not linger in memory after its request. */
const SECRET_KEY = /"[^"]*(pass|pwd|token|secret)[^"]*":/i;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validates bodies strictly (an unknown field is refused), while unknown query parameters, such as a
 * cache-busting timestamp, are dropped rather than refused.
 *
 * The same input always validates the same way, and consoles send the same few requests over and over (paging,
 * auto-refresh), so the validated object of a recent input is reused, frozen so that no handler can change it.
 */
export function createValidationPipe(): PipeTransform {
  const strict = pipe(true);
  const lenient = pipe(false);
  const memos = new WeakMap<object, Map<string, unknown>>();
  const validate = (value: unknown, metadata: ArgumentMetadata): unknown => (metadata.type === 'query' ? lenient : strict).transform(value, metadata);
  return {
    transform: async (value: unknown, metadata: ArgumentMetadata) => {
      const dto = metadata.metatype;
      if (!dto || (metadata.type !== 'body' && metadata.type !== 'query') || value === null || typeof value !== 'object') {
        return validate(value, metadata);
      }
      const key = `${metadata.type}:${JSON.stringify(value)}`;
      if (SECRET_KEY.test(key)) return validate(value, metadata);
      let memo = memos.get(dto);
      if (!memo) memos.set(dto, (memo = new Map()));
      if (memo.has(key)) return memo.get(key);
      const valid = deepFreeze(await validate(value, metadata));
      if (memo.size >= MEMO_SIZE) memo.delete(memo.keys().next().value as string);
      memo.set(key, valid);
      return valid;
    },
  };
}
