import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client.js';
import type { Embedder } from '../../embeddings/embedder.js';

// D41: one partial HNSW index per model, on a cast of the dimensionless `embedding` column to the
// model's dimension, limited to that model's rows. A query uses it only when it repeats the same
// cast and the same predicate, so both are built here and nowhere else.

export const SEARCHABLE_TABLES = ['messages', 'dialogues', 'memories'] as const;
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

/** Creates the configured model's HNSW index on every searchable table if it is missing (D41). */
export async function ensureVectorIndexes(database: DatabaseHandle, embedder: Embedder): Promise<void> {
  const type = vectorType(embedder.dimensions);
  for (const table of SEARCHABLE_TABLES) {
    // CONCURRENTLY keeps a running server's writes flowing while a large table is indexed; PGlite
    // has a single connection and does not need it.
    const concurrently = database.kind === 'postgres' ? 'CONCURRENTLY ' : '';
    await database.db.execute(
      sql.raw(
        `CREATE INDEX ${concurrently}IF NOT EXISTS ${vectorIndexName(table, embedder)} ON ${table} ` +
          `USING hnsw ((embedding::${type}(${embedder.dimensions})) ${type}_cosine_ops) ` +
          `WHERE ${modelPredicateText(embedder)}`,
      ),
    );
  }
}
