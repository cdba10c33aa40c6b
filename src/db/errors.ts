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
