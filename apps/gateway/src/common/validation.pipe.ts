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

/**
 * What the memo of validated inputs may hold, counted as the length of their JSON text (the validated objects are
 * about as large): a few MB in all, whoever sends what. Inputs longer than MEMO_INPUT_MAX are validated every time;
 * a console's repeated requests (paging, auto-refresh) are a few hundred characters.
 */
const MEMO_CHARS = 2_000_000;
const MEMO_INPUT_MAX = 4_096;
/** Inputs with secrets are never kept: a password must not linger in memory after its request. */
const SECRET_KEY = /"[^"]*(pass|pwd|token|secret)[^"]*":/i;

/** Objects and arrays nested deeper than this are refused; no request of the console nests more than a few levels. */
export const NESTING_MAX = 32;

/**
 * The first problem no validator should see: nesting deeper than NESTING_MAX (recursive code further on, down to
 * JSON.stringify, would run out of stack on a body nested 100,000 deep) or a NUL character, which PostgreSQL refuses
 * in text. Walked without recursion.
 */
export function structuralProblem(value: unknown): FieldProblem | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const field = item.path || 'body';
    if (typeof item.value === 'string') {
      if (item.value.includes('\u0000')) return { field, key: 'invalidValue' };
    } else if (item.value !== null && typeof item.value === 'object') {
      if (item.depth >= NESTING_MAX) return { field, key: 'invalidValue' };
      for (const [key, child] of Object.entries(item.value as Record<string, unknown>)) {
        if (key.includes('\u0000')) return { field, key: 'invalidValue' };
        stack.push({ value: child, path: item.path ? `${item.path}.${key}` : key, depth: item.depth + 1 });
      }
    }
  }
  return null;
}

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
export function createValidationPipe(memoLimitChars = MEMO_CHARS): PipeTransform {
  const strict = pipe(true);
  const lenient = pipe(false);
  // One memo for every input class, oldest first (Map keeps insertion order), bounded by MEMO_CHARS (a test's own bound
  // shows the eviction with fewer inputs).
  const classIds = new WeakMap<object, number>();
  let nextClassId = 1;
  const memo = new Map<string, unknown>();
  let memoChars = 0;
  const validate = (value: unknown, metadata: ArgumentMetadata): unknown => (metadata.type === 'query' ? lenient : strict).transform(value, metadata);
  return {
    transform: async (value: unknown, metadata: ArgumentMetadata) => {
      const dto = metadata.metatype;
      if (!dto || (metadata.type !== 'body' && metadata.type !== 'query') || value === null || typeof value !== 'object') {
        return validate(value, metadata);
      }
      const problem = structuralProblem(value);
      if (problem) throw AppException.badRequest('validationField', {}, [problem]);
      const json = JSON.stringify(value);
      if (json.length > MEMO_INPUT_MAX || SECRET_KEY.test(json)) return validate(value, metadata);
      let classId = classIds.get(dto);
      if (classId === undefined) classIds.set(dto, (classId = nextClassId++));
      const key = `${classId}:${metadata.type}:${json}`;
      if (memo.has(key)) return memo.get(key);
      const valid = deepFreeze(await validate(value, metadata));
      memo.set(key, valid);
      memoChars += key.length;
      for (const oldest of memo.keys()) {
        if (memoChars <= memoLimitChars) break;
        memo.delete(oldest);
        memoChars -= oldest.length;
      }
      return valid;
    },
  };
}
