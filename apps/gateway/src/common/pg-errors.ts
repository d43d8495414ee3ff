/** PostgreSQL error codes the services turn into answers for the caller. */
export function pgErrorCode(err: unknown): string | undefined {
  return (err as { code?: string; driverError?: { code?: string } })?.code ?? (err as { driverError?: { code?: string } })?.driverError?.code;
}

/** The constraint (or index) a violation names, '' when none. */
export function pgConstraint(err: unknown): string {
  const e = err as { constraint?: string; driverError?: { constraint?: string } };
  return e?.constraint ?? e?.driverError?.constraint ?? '';
}

export const isUniqueViolation = (err: unknown): boolean => pgErrorCode(err) === '23505';

/** A row refers to one that is gone, or is still referred to (a race between a check and a change). */
export const isForeignKeyViolation = (err: unknown): boolean => pgErrorCode(err) === '23503';

/** Keys of transaction-scoped advisory locks that serialise changes which must see each other. */
export const ADVISORY_LOCK = {
  regionTree: 7_310_001,
  administrators: 7_310_002,
} as const;
