import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { withPolledAdvisoryLock } from '../../db/advisory-lock.js';
import { type Database, type DatabaseHandle, rowsOf } from '../../db/client.js';
import type { Embedder } from '../../embedders/embedder.js';

// D41: one partial HNSW index per model, on a cast of the dimensionless `embedding` column to the
// model's dimension, limited to that model's rows. A query uses it only when it repeats the same
// cast and the same predicate, so both are built here and nowhere else.

const SEARCHABLE_TABLES = ['messages', 'dialogues', 'memories'] as const;
export type SearchableTable = (typeof SEARCHABLE_TABLES)[number];

/** pgvector indexes `vector` up to 2,000 dimensions and `halfvec` up to 4,000. */
const vectorType = (dimensions: number) => (dimensions <= 2000 ? 'vector' : 'halfvec');

/** `(embedding::vector(512))`: the indexed expression. */
export function embeddingExpression(embedder: Embedder, alias?: string): SQL {
  const column = alias ? `${alias}.embedding` : 'embedding';
  return sql.raw(`(${column}::${vectorType(embedder.dimensions)}(${embedder.dimensions}))`);
}

/** The query vector with the same type as the indexed expression. */
export function queryVector(embedder: Embedder, vector: number[]): SQL {
  return sql`${`[${vector.join(',')}]`}::${sql.raw(`${vectorType(embedder.dimensions)}(${embedder.dimensions})`)}`;
}

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

export function vectorIndexName(table: SearchableTable, embedder: Embedder): string {
  const hash = createHash('sha256').update(embedder.id).digest('hex').slice(0, 12);
  return `${table}_embedding_${hash}_idx`;
}

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

function createIndexStatement(table: SearchableTable, embedder: Embedder, concurrently: boolean): SQL {
  const type = vectorType(embedder.dimensions);
  return sql.raw(
    `CREATE INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF NOT EXISTS ${vectorIndexName(table, embedder)} ` +
      `ON ${table} USING hnsw ((embedding::${type}(${embedder.dimensions})) ${type}_cosine_ops) ` +
      `WHERE ${modelPredicateText(embedder)}`,
  );
}

/**
 * Creates the configured model's HNSW index on every searchable table if it is missing (D41).
 * On Postgres the build is CONCURRENTLY, so that a running server's writes keep flowing while a
 * large table is indexed, and instances that start together take turns under an advisory lock:
 * two concurrent builds of one index deadlock. A build that died half-way leaves an invalid
 * index, which `IF NOT EXISTS` would keep for ever; it is dropped and built again. PGlite has a
 * single connection and needs neither.
 */
export async function ensureVectorIndexes(database: DatabaseHandle, embedder: Embedder): Promise<void> {
  if (database.kind === 'pglite') {
    for (const table of SEARCHABLE_TABLES)
      await database.db.execute(createIndexStatement(table, embedder, false));
    return;
  }
  await database.withDedicatedConnection(async (db) => {
    // Every start after the first finds its indexes in place and takes no lock (the lock is a
    // session lock: behind a transaction-mode pooler it must not be needed on every start).
    const names = SEARCHABLE_TABLES.map((table) => vectorIndexName(table, embedder));
    const states = await Promise.all(names.map((name) => indexState(db, name)));
    if (states.every((state) => state === 'valid')) return;
    await withPolledAdvisoryLock(db, VECTOR_INDEX_LOCK_ID, async () => {
      for (const table of SEARCHABLE_TABLES) {
        const name = vectorIndexName(table, embedder);
        const state = await indexState(db, name);
        if (state === 'valid') continue;
        if (state === 'invalid') await db.execute(sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`));
        await db.execute(createIndexStatement(table, embedder, true));
      }
    });
  });
}
