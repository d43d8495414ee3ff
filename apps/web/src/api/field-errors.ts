import type { FieldError } from '@sc/contracts';
import { ApiError } from './request';

/**
 * The translated per-field messages of a refused call (HTTP 400 answers carry `data.errors`), keyed by field,
 * so a form can show each one under its input as well as in the toast.
 */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !error.data || typeof error.data !== 'object') return {};
  const errors = (error.data as { errors?: FieldError[] }).errors;
  if (!Array.isArray(errors)) return {};
  return Object.fromEntries(errors.map((e) => [e.field, e.reason || e.message]));
}
