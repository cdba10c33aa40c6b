import { type Placeholder, type SQL, asc, desc, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** Where a keyset page starts: the sort key of the last row of the previous page. */
export interface KeysetPosition {
  created: Date | string | Placeholder;
  /**
   * The tie-breaker after `created`: an id (text) or an insertion sequence (bigint); a placeholder
   * for a sequence comes cast (`sql\`${placeholder}::bigint\``).
   */
  tiebreak: string | number | SQL;
}

/**
 * Keyset pagination (D26, D32): the rows strictly beyond `position` in the list's order, as one
 * row comparison on (created, tie-breaker), which the (…, created, tie-breaker) indexes serve.
 * Never an offset. Undefined on the first page.
 */
function beyondPosition(
  created: AnyPgColumn,
  tiebreak: AnyPgColumn,
  position: KeysetPosition | undefined,
  order: 'asc' | 'desc' = 'asc',
): SQL | undefined {
  if (!position) return undefined;
  const at = position.created instanceof Date ? position.created.toISOString() : position.created;
  const key =
    typeof position.tiebreak === 'number' ? sql`${position.tiebreak}::bigint` : sql`${position.tiebreak}`;
  const bound = sql`(${at}::timestamptz, ${key})`;
  return order === 'asc'
    ? sql`(${created}, ${tiebreak}) > ${bound}`
    : sql`(${created}, ${tiebreak}) < ${bound}`;
}

/**
 * A position on (created, seq) given as the placeholders `${name}Created` and `${name}Seq`, for a
 * query built once (src/db/prepared.ts, builtOnce) whose values come when it runs.
 */
export const seqPositionPlaceholders = (name: string): KeysetPosition => ({
  created: sql.placeholder(`${name}Created`),
  tiebreak: sql`${sql.placeholder(`${name}Seq`)}::bigint`,
});

/** The two halves of a keyset page on (created, tie-breaker): where it starts and its order. */
export function keysetPage(
  created: AnyPgColumn,
  tiebreak: AnyPgColumn,
  position: KeysetPosition | undefined,
  order: 'asc' | 'desc' = 'asc',
): { beyond: SQL | undefined; orderBy: [SQL, SQL] } {
  const direction = order === 'asc' ? asc : desc;
  return {
    beyond: beyondPosition(created, tiebreak, position, order),
    orderBy: [direction(created), direction(tiebreak)],
  };
}
