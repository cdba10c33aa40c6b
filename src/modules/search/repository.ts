import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import type { Embedder } from '../../embedders/embedder.js';
import { embeddingExpression, modelPredicate, queryVector } from '../embeddings/vector-sql.js';

// D40: candidates come from two indexes, the HNSW index of the configured model and the GIN
// full-text index; both are scored over their union in the same statement. Every filter sits
// inside both candidate queries, so a filtered search cannot lose its hits to other tenants'
// rows (and never sees them).

export interface SearchFilters {
  projectId: string;
  /** null: only items without a namespace (D34). */
  namespace: string | null;
  dialogueId?: string;
  tags: string[];
  /** Messages only: tags their dialogue must carry (a dialogue search reaching into messages). */
  dialogueTags?: string[];
}

export interface CandidateRow {
  /** Dialogue of a message; the dialogue itself for a dialogue; '' for a memory. */
  dialogueId: string;
  id: string;
  /** Cosine similarity to the query, null when the row has no vector of the configured model. */
  cosine: number | null;
  /** ts_rank_cd of the row against the OR of the query's lexemes. */
  rank: number;
  /** Lexemes of the query the row contains, of `lexemeCount`. */
  matched: number;
  lexemeCount: number;
}

export type SearchTable = 'messages' | 'dialogues' | 'memories';

export interface CandidateQuery {
  table: SearchTable;
  filters: SearchFilters;
  text: string;
  /** The query's vector, when semantic candidates are wanted. */
  vector?: { embedder: Embedder; values: number[] };
  lexical: boolean;
  /** Candidates taken from each index. */
  k: number;
}

const textArray = (values: string[]): SQL =>
  sql`ARRAY[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;

function filterSql(table: SearchTable, filters: SearchFilters): SQL {
  const parts: SQL[] = [sql`t.project_id = ${filters.projectId}`];
  parts.push(filters.namespace === null ? sql`t.namespace IS NULL` : sql`t.namespace = ${filters.namespace}`);
  if (filters.dialogueId !== undefined && table === 'messages') {
    parts.push(sql`t.dialogue_id = ${filters.dialogueId}`);
  }
  if (filters.tags.length > 0) parts.push(sql`t.tags @> ${textArray(filters.tags)}`);
  if (filters.dialogueTags && filters.dialogueTags.length > 0 && table === 'messages') {
    parts.push(sql`EXISTS (SELECT 1 FROM dialogues d
      WHERE d.project_id = t.project_id AND d.id = t.dialogue_id AND d.tags @> ${textArray(filters.dialogueTags)})`);
  }
  return sql.join(parts, sql` AND `);
}

const keyColumns: Record<SearchTable, SQL> = {
  messages: sql.raw('t.dialogue_id AS "dialogueId", t.id'),
  dialogues: sql.raw('t.id AS "dialogueId", t.id'),
  memories: sql.raw(`'' AS "dialogueId", t.id`),
};

const joinOnKey: Record<SearchTable, SQL> = {
  messages: sql.raw('t.dialogue_id = c."dialogueId" AND t.id = c.id'),
  dialogues: sql.raw('t.id = c.id'),
  memories: sql.raw('t.id = c.id'),
};

/** The candidates of one table, scored by both signals. */
export async function findCandidates(db: Executor, query: CandidateQuery): Promise<CandidateRow[]> {
  const { table, filters, vector, k } = query;
  const from = sql.raw(`${table} AS t`);
  const where = filterSql(table, filters);
  const branches: SQL[] = [];
  if (query.lexical) {
    branches.push(sql`(SELECT ${keyColumns[table]} FROM ${from}, q
      WHERE ${where} AND t.search_vector @@ q.tsq
      ORDER BY ts_rank_cd(t.search_vector, q.tsq) DESC LIMIT ${k})`);
  }
  const distance = vector
    ? sql`${embeddingExpression(vector.embedder, 't')} <=> ${queryVector(vector.embedder, vector.values)}`
    : undefined;
  if (vector && distance) {
    branches.push(sql`(SELECT ${keyColumns[table]} FROM ${from}
      WHERE ${where} AND ${modelPredicate(vector.embedder, 't')}
      ORDER BY ${distance} LIMIT ${k})`);
  }
  if (branches.length === 0) return [];
  const cosine = vector
    ? sql`CASE WHEN ${modelPredicate(vector.embedder, 't')} THEN 1 - (${distance}) END`
    : sql`NULL::float8`;

  const statement = sql`
    WITH q AS (
      SELECT replace(plainto_tsquery('english', ${query.text})::text, ' & ', ' | ')::tsquery AS tsq,
        tsvector_to_array(to_tsvector('english', ${query.text})) AS lexemes
    ),
    c AS (${sql.join(branches, sql` UNION `)})
    SELECT c."dialogueId", c.id, ${cosine} AS cosine,
      ts_rank_cd(t.search_vector, q.tsq) AS rank,
      (SELECT count(*) FROM unnest(q.lexemes) AS l WHERE t.search_vector @@ quote_literal(l)::tsquery)::int AS matched,
      cardinality(q.lexemes) AS "lexemeCount"
    FROM c JOIN ${from} ON t.project_id = ${filters.projectId} AND ${joinOnKey[table]}, q`;

  // pgvector 0.8: with filters, an HNSW scan keeps going until it has enough rows that pass them,
  // instead of returning the few of its first ef_search neighbours that happen to pass.
  const rows = vector
    ? await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, k))}`));
        return rowsOf<CandidateRow>(await tx.execute(statement));
      })
    : rowsOf<CandidateRow>(await db.execute(statement));
  return rows.map((row) => ({
    dialogueId: row.dialogueId,
    id: row.id,
    cosine: row.cosine === null ? null : Number(row.cosine),
    rank: Number(row.rank),
    matched: Number(row.matched),
    lexemeCount: Number(row.lexemeCount),
  }));
}
