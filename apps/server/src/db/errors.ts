/**
 * The SQLSTATE of a database error, wherever the driver or the ORM put it (drizzle wraps the
 * driver's error as its `cause`); undefined for another error.
 */
export function pgErrorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique index refused the row (two writers raced for the same key). */
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === '23505';

/**
 * An error that the same work, tried again, may not meet: a deadlock (40P01), a
 * serialization failure (40001) or a lock not granted in time (55P03).
 */
export const isTransient = (error: unknown) => ['40P01', '40001', '55P03'].includes(pgErrorCode(error) ?? '');
