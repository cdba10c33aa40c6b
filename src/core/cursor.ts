import { z } from 'zod';
import { AppError } from './errors.js';

// Opaque keyset cursors (D26, D32): the last row's sort key, never an offset.

export type CursorKey = (string | number)[];

export function encodeCursor(kind: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify([kind, ...key]), 'utf8').toString('base64url');
}

/** Decodes a cursor made by encodeCursor for the same kind of list; anything else is 400. */
export function decodeCursor(kind: string, cursor: string): CursorKey {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(decoded) && decoded[0] === kind && decoded.length > 1) {
      const key = decoded.slice(1);
      if (key.every((part) => typeof part === 'string' || typeof part === 'number')) return key;
    }
  } catch {
    // fall through to the error below
  }
  throw invalidCursor();
}

/** The error for a cursor this list did not make (also for a well-formed one whose key is off). */
export function invalidCursor(): AppError {
  return new AppError('INVALID_PARAMETER', 'next: not a cursor returned by this list', [
    { field: 'next', code: 'INVALID_PARAMETER', message: 'not a cursor returned by this list' },
  ]);
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

/**
 * One page out of `limit + 1` rows read: the rows to return, and the cursor of the next page
 * made from the last of them (null on the last page).
 */
export function pageOf<T>(
  rows: T[],
  limit: number,
  kind: string,
  keyOf: (row: T) => CursorKey,
): { page: T[]; next: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next: rows.length > limit && last !== undefined ? encodeCursor(kind, keyOf(last)) : null };
}
