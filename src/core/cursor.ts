import { z } from 'zod';
import { AppError } from './errors.js';

// Opaque keyset cursors (D26, D32): the last row's sort key, never an offset. One codec for every
// list: a cursor names its list (`kind`) and carries the key in the parts the list declares.

type KeyPart = 'date' | 'string' | 'integer';
type PartValue<P extends KeyPart> = P extends 'integer' ? number : string;
type KeyOf<P extends readonly KeyPart[]> = { [I in keyof P]: PartValue<P[I]> };

const partIsValid: Record<KeyPart, (value: unknown) => boolean> = {
  date: (value) => typeof value === 'string' && !Number.isNaN(Date.parse(value)),
  string: (value) => typeof value === 'string',
  integer: (value) => Number.isSafeInteger(value),
};

/** The error for a cursor this list did not make (also for a well-formed one whose key is off). */
function invalidCursor(): AppError {
  return new AppError('INVALID_PARAMETER', 'next: not a cursor returned by this list', [
    { field: 'next', code: 'INVALID_PARAMETER', message: 'not a cursor returned by this list' },
  ]);
}

export interface KeysetCursor<Row, Key> {
  /** The cursor that resumes after `row`. */
  encode(row: Row): string;
  /** The key a `next` cursor carries; 400 INVALID_PARAMETER for anything this list did not make. */
  decode(cursor: string): Key;
  /**
   * One page out of `limit + 1` rows read: the rows to return, and the cursor of the next page
   * made from the last of them (null on the last page).
   */
  page(rows: Row[], limit: number): { page: Row[]; next: string | null };
}

/** The cursor of one list: its kind, the types of its key parts, and how a row gives its key. */
export function keysetCursor<Row, const P extends readonly KeyPart[]>(
  kind: string,
  parts: P,
  keyOf: (row: Row) => KeyOf<P>,
): KeysetCursor<Row, KeyOf<P>> {
  const encode = (row: Row) =>
    Buffer.from(JSON.stringify([kind, ...(keyOf(row) as unknown[])]), 'utf8').toString('base64url');
  return {
    encode,
    decode(cursor) {
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      } catch {
        throw invalidCursor();
      }
      if (!Array.isArray(decoded) || decoded[0] !== kind || decoded.length !== parts.length + 1) {
        throw invalidCursor();
      }
      const key = decoded.slice(1);
      if (!parts.every((part, index) => partIsValid[part](key[index]))) throw invalidCursor();
      return key as KeyOf<P>;
    },
    page(rows, limit) {
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { page, next: rows.length > limit && last !== undefined ? encode(last) : null };
    },
  };
}

export const cursorParam = z.string().min(1).max(1024).optional().describe('Cursor from the previous page');

export function limitParam(defaultLimit: number, max: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(defaultLimit)
    .describe(`Items per page (default ${defaultLimit}, max ${max})`);
}

export const orderParam = (defaultOrder: 'asc' | 'desc') =>
  z.enum(['asc', 'desc']).default(defaultOrder).describe(`Sort order (default ${defaultOrder})`);
