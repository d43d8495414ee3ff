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
 * Validates bodies strictly (an unknown field is refused), while unknown query parameters, such as a
 * cache-busting timestamp, are dropped rather than refused.
 */
export function createValidationPipe(): PipeTransform {
  const strict = pipe(true);
  const lenient = pipe(false);
  return {
    transform: (value: unknown, metadata: ArgumentMetadata) => (metadata.type === 'query' ? lenient : strict).transform(value, metadata),
  };
}
