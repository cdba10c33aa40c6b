import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { withPolledAdvisoryLock } from '../../db/advisory-lock.js';
import { type Database, type DatabaseHandle, rowsOf } from '../../db/client.js';
import type { Embedder } from '../../embedders/embedder.js';

// D41: one partial HNSW index per model, on a cast of the dimensionless `embedding` column to the
// model's dimension, limited to that model's rows. A query uses it only when it repeats the same
// cast and the same predicate, so both are built here and nowhere else.
//
// D172: on PostgreSQL the index holds the vectors at half precision (`halfvec`): half the bytes of
// the index, and of the memory its graph walks through, for a cosine that differs from the full
// one in the fourth decimal. Only the order of the index's candidates comes from it; every score,
// and the exact scan of a small scope, uses the stored vector at full precision. D175: PGlite's
// index keeps full precision, as its half-precision one builds 5-7 times slower and is walked
// twice as slowly there.

const SEARCHABLE_TABLES = ['messages', 'dialogues', 'memories'] as const;
export type SearchableTable = (typeof SEARCHABLE_TABLES)[number];

const cast = (type: 'vector' | 'halfvec', embedder: Embedder, alias?: string): SQL =>
  sql.raw(`(${alias ? `${alias}.embedding` : 'embedding'}::${type}(${embedder.dimensions}))`);

/** `(embedding::vector(512))`: the stored vector at full precision, for scores and exact scans. */
export const embeddingExpression = (embedder: Embedder, alias?: string): SQL =>
  cast('vector', embedder, alias);

/** The query vector with the same type as embeddingExpression. */
export const queryVector = (embedder: Embedder, vector: number[]): SQL =>
  sql`${`[${vector.join(',')}]`}::${sql.raw(`vector(${embedder.dimensions})`)}`;

/**
 * What a model's HNSW index holds on a store (D172, D175): half precision on PostgreSQL; full on
 * PGlite, up to the 2,000 dimensions pgvector indexes at full precision (half goes to 4,000).
 */
export type IndexPrecision = 'halfvec' | 'vector';

export const indexPrecisionOf = (kind: DatabaseHandle['kind'], embedder: Embedder): IndexPrecision =>
  kind === 'pglite' && embedder.dimensions <= 2000 ? 'vector' : 'halfvec';

/**
 * `t.embedding::halfvec(512) <=> query::halfvec(512)` (or `vector`, as the index holds): the
 * indexed expression's distance to `query`, a full-precision vector (queryVector, or a value that
 * holds one), the one ORDER BY that walks the HNSW index.
 */
export const indexedDistance = (
  embedder: Embedder,
  precision: IndexPrecision,
  alias: string,
  query: SQL,
): SQL =>
  sql`${cast(precision, embedder, alias)} <=> ${query}::${sql.raw(`${precision}(${embedder.dimensions})`)}`;

/**
 * `embedding_model = '<id>'` as a literal, not a parameter: the planner can use a partial index
 * only when the query's predicate is provably the index's one.
 */
export function modelPredicate(embedder: Embedder, alias?: string): SQL {
  return sql.raw(modelPredicateText(embedder, alias));
}

function modelPredicateText(embedder: Embedder, alias?: string): string {
  const column = alias ? `${alias}.embedding_model` : 'embedding_model';
  return `${column} = '${embedder.id.replaceAll("'", "''")}'`;
}

const modelHash = (embedder: Embedder) => createHash('sha256').update(embedder.id).digest('hex').slice(0, 12);

export function vectorIndexName(
  table: SearchableTable,
  embedder: Embedder,
  precision: IndexPrecision,
): string {
  return `${table}_embedding_${modelHash(embedder)}_${precision === 'halfvec' ? 'half_' : ''}idx`;
}

/**
 * The model's index of the other precision: what an older version built on this store (full on
 * PostgreSQL before D172, half on PGlite between D172 and D175), dropped once its successor is built.
 */
const replacedIndexName = (table: SearchableTable, embedder: Embedder, precision: IndexPrecision) =>
  vectorIndexName(table, embedder, precision === 'halfvec' ? 'vector' : 'halfvec');

/** An arbitrary constant shared by every Parley instance: the lock of vector index builds. */
const VECTOR_INDEX_LOCK_ID = 7_242_031_338;

type IndexState = 'missing' | 'valid' | 'invalid';

async function indexState(db: Database, name: string): Promise<IndexState> {
  const result = await db.execute(sql`
    SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE c.relname = ${name} AND c.relnamespace = current_schema()::regnamespace`);
  const row = rowsOf<{ valid: boolean }>(result)[0];
  return row === undefined ? 'missing' : row.valid ? 'valid' : 'invalid';
}

function createIndexStatement(
  table: SearchableTable,
  embedder: Embedder,
  precision: IndexPrecision,
  concurrently: boolean,
): SQL {
  const name = vectorIndexName(table, embedder, precision);
  return sql.raw(
    `CREATE INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${name} ` +
      `ON ${table} USING hnsw ((embedding::${precision}(${embedder.dimensions})) ${precision}_cosine_ops) ` +
      `WHERE ${modelPredicateText(embedder)}`,
  );
}

/**
 * Creates the configured model's HNSW index on every searchable table if it is missing (D41), in
 * the store's precision (D172, D175), and then drops the index of the other precision that an
 * older version built, so that an upgraded database searches through the new index as soon as it
 * is built and keeps no index that no query uses.
 * On Postgres the build is CONCURRENTLY, so that a running server's writes keep flowing while a
 * large table is indexed, and instances that start together take turns under an advisory lock:
 * two concurrent builds of one index deadlock. A build that died half-way leaves an invalid
 * index, which `IF NOT EXISTS` would keep for ever; it is dropped and built again. PGlite has a
 * single connection and needs neither.
 */
export async function ensureVectorIndexes(database: DatabaseHandle, embedder: Embedder): Promise<void> {
  const precision = indexPrecisionOf(database.kind, embedder);
  if (database.kind === 'pglite') {
    for (const table of SEARCHABLE_TABLES) {
      await database.db.execute(createIndexStatement(table, embedder, precision, false));
      await database.db.execute(
        sql.raw(`DROP INDEX IF EXISTS ${replacedIndexName(table, embedder, precision)}`),
      );
    }
    return;
  }
  await database.withDedicatedConnection(async (db) => {
    // Every start after the first finds its indexes in place and takes no lock (the lock is a
    // session lock: behind a transaction-mode pooler it must not be needed on every start).
    // One question at a time: the connection is one client, and pg deprecates queueing on it.
    let settled = true;
    for (const table of SEARCHABLE_TABLES) {
      settled &&=
        (await indexState(db, vectorIndexName(table, embedder, precision))) === 'valid' &&
        (await indexState(db, replacedIndexName(table, embedder, precision))) === 'missing';
    }
    if (settled) return;
    await withPolledAdvisoryLock(db, VECTOR_INDEX_LOCK_ID, async () => {
      for (const table of SEARCHABLE_TABLES) {
        const name = vectorIndexName(table, embedder, precision);
        const state = await indexState(db, name);
        if (state === 'invalid') await db.execute(sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`));
        if (state !== 'valid') await db.execute(createIndexStatement(table, embedder, precision, true));
        await db.execute(
          sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${replacedIndexName(table, embedder, precision)}`),
        );
      }
    });
  });
}
