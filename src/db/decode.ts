import type { Column } from 'drizzle-orm';

// Rows of a raw statement (`db.execute(sql...)`) decoded with the table's own column decoders, so
// that a hand-written statement returns exactly what the query builder would: Dates, numbers for
// bigint columns, parsed JSON, arrays. Both drivers are covered: each decoder takes the raw text
// node-postgres gives as well as the parsed values PGlite gives.

type DecodedRow<TColumns extends Record<string, Column>> = {
  [K in keyof TColumns]: TColumns[K]['_']['notNull'] extends true
    ? TColumns[K]['_']['data']
    : TColumns[K]['_']['data'] | null;
};

/** Reads `columns` out of `raw` by their SQL names, each after `prefix` (for joined rows). */
export function decodeColumns<TColumns extends Record<string, Column>>(
  columns: TColumns,
  raw: Record<string, unknown>,
  prefix = '',
): DecodedRow<TColumns> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = raw[prefix + column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as DecodedRow<TColumns>;
}
