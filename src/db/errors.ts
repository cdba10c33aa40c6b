// Postgres error codes, read through Drizzle's wrapper (DrizzleQueryError keeps the driver's
// error as `cause`). Repositories translate them into domain errors (STYLE 6).

export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';
export const PG_SERIALIZATION_FAILURE = '40001';
export const PG_DEADLOCK = '40P01';

export interface PgErrorInfo {
  code: string;
  constraint?: string;
}

export function pgError(error: unknown): PgErrorInfo | undefined {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof candidate.code === 'string' && /^[0-9A-Z]{5}$/.test(candidate.code)) {
      return {
        code: candidate.code,
        constraint: typeof candidate.constraint === 'string' ? candidate.constraint : undefined,
      };
    }
    current = candidate.cause;
  }
  return undefined;
}

export const isUniqueViolation = (error: unknown, constraint?: string): boolean => {
  const info = pgError(error);
  return info?.code === PG_UNIQUE_VIOLATION && (constraint === undefined || info.constraint === constraint);
};

const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * SQLSTATEs of a server that is not there yet: connection exceptions (class 08), starting up or
 * shutting down (57P01-57P03), a database not created yet (3D000), too many connections (53300).
 */
const TRANSIENT_PG_CODE = /^(08...|57P0[1-3]|3D000|53300)$/;

/** True when a database may become reachable by waiting: what start-up retries (D47). */
export function isTransientConnectionError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof candidate.code === 'string') {
      if (TRANSIENT_NETWORK_CODES.has(candidate.code) || TRANSIENT_PG_CODE.test(candidate.code)) return true;
    }
    // net's AggregateError (one error per address tried) and pg's "terminated unexpectedly".
    if (Array.isArray(candidate.errors) && candidate.errors.some(isTransientConnectionError)) return true;
    if (
      typeof candidate.message === 'string' &&
      /Connection terminated|timeout expired/i.test(candidate.message)
    ) {
      return true;
    }
    current = candidate.cause;
  }
  return false;
}
