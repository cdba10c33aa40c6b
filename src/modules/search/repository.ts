import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import type { Embedder } from '../../embedders/embedder.js';
import { embeddingExpression, modelPredicate, queryVector } from '../embeddings/vector-sql.js';
import {
  type InstantRange,
  type MetadataCondition,
  type ObjectFilters,
  hasObjectFilters,
} from './filters.js';

// D40: candidates come from two indexes, the HNSW index of the configured model and the GIN
// full-text index; both are scored over their union in the same statement. Every filter (D51,
// D59) sits inside both candidate queries, so a filtered search cannot lose its hits to rows that
// fail the filter or to other tenants' rows (and never sees them), and nothing is filtered after
// the page.

/** Where a search looks (D51, D34): the project always, a namespace and a dialogue when given. */
export interface SearchScope {
  projectId: string;
  /** undefined: the whole project (D51). */
  namespace?: string;
  dialogueId?: string;
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
  scope: SearchScope;
  /** Tested on the searched rows themselves (D59). */
  filters: ObjectFilters;
  /** Messages only: what their dialogue must satisfy (a dialogue search reaching into messages). */
  dialogueFilters?: ObjectFilters;
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

const jsonbValue = (value: unknown): SQL => sql`${JSON.stringify(value)}::jsonb`;

/**
 * D59: a message has an image when its content holds a block (at any depth: a tool result's
 * blocks count) whose `type` is image, image_url or input_image. The content is JSON text (D28);
 * it is parsed only when the text can hold such a type at all (the word, or a \u escape).
 */
const IMAGE_BLOCK = '$.** ? (@.type == "image" || @.type == "image_url" || @.type == "input_image")';
const messageHasImage = (alias: string): SQL => {
  const content = sql.raw(`${alias}.content`);
  return sql`(CASE WHEN strpos(${content}, 'image') > 0 OR strpos(${content}, ${'\\u'}) > 0
    THEN jsonb_path_exists(${content}::jsonb, ${IMAGE_BLOCK}::jsonpath) ELSE false END)`;
};

function hasImageSql(table: SearchTable, alias: string): SQL {
  if (table === 'messages') return messageHasImage(alias);
  if (table === 'dialogues') {
    return sql`EXISTS (SELECT 1 FROM messages m
      WHERE m.project_id = ${sql.raw(alias)}.project_id AND m.dialogue_id = ${sql.raw(alias)}.id
        AND ${messageHasImage('m')})`;
  }
  // A memory holds no content blocks: it never has an image.
  return sql`false`;
}

/**
 * One metadata condition on `alias.metadata` (top-level field). A missing field (or no metadata)
 * reads as JSON null, so `$eq: null` matches it and `$ne: <value>` matches it; comparisons hold
 * only between numbers, or between strings (code-point order).
 */
function metadataSql(alias: string, { field, op, value }: MetadataCondition): SQL {
  const column = sql.raw(`${alias}.metadata`);
  const read = sql`coalesce(${column} -> ${field}::text, 'null'::jsonb)`;
  switch (op) {
    case '$eq':
      return sql`${read} = ${jsonbValue(value)}`;
    case '$ne':
      return sql`${read} <> ${jsonbValue(value)}`;
    case '$in':
    case '$nin': {
      const list = sql`ARRAY[${sql.join((value as unknown[]).map(jsonbValue), sql`, `)}]`;
      return op === '$in' ? sql`${read} = ANY(${list})` : sql`${read} <> ALL(${list})`;
    }
    default: {
      const operator = sql.raw({ $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]);
      const text = sql`(${column} ->> ${field}::text)`;
      if (typeof value === 'number') {
        return sql`(CASE WHEN jsonb_typeof(${column} -> ${field}::text) = 'number'
          THEN ${text}::numeric ${operator} ${value}::numeric ELSE false END)`;
      }
      return sql`(CASE WHEN jsonb_typeof(${column} -> ${field}::text) = 'string'
        THEN ${text} COLLATE "C" ${operator} ${value}::text ELSE false END)`;
    }
  }
}

function rangeSql(column: SQL, range: InstantRange): SQL[] {
  const parts: SQL[] = [];
  if (range.lower) {
    const op = sql.raw(range.lower.inclusive ? '>=' : '>');
    parts.push(sql`${column} ${op} ${range.lower.at.toISOString()}::timestamptz`);
  }
  if (range.upper) {
    const op = sql.raw(range.upper.inclusive ? '<=' : '<');
    parts.push(sql`${column} ${op} ${range.upper.at.toISOString()}::timestamptz`);
  }
  return parts;
}

/** The D59 filters on the rows of `table` under `alias`. */
function objectFilterSql(table: SearchTable, alias: string, filters: ObjectFilters): SQL[] {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const parts: SQL[] = [];
  const { tags } = filters;
  if (tags.all.length > 0) parts.push(sql`${column('tags')} @> ${textArray(tags.all)}`);
  if (tags.any.length > 0) parts.push(sql`${column('tags')} && ${textArray(tags.any)}`);
  if (tags.none.length > 0) parts.push(sql`NOT (${column('tags')} && ${textArray(tags.none)})`);
  for (const condition of filters.metadata) parts.push(metadataSql(alias, condition));
  if (filters.created) parts.push(...rangeSql(column('created'), filters.created));
  if (filters.modified) parts.push(...rangeSql(column('modified'), filters.modified));
  if (filters.hasImage !== undefined) {
    const image = hasImageSql(table, alias);
    parts.push(filters.hasImage ? image : sql`NOT ${image}`);
  }
  return parts;
}

function whereSql(query: Pick<CandidateQuery, 'table' | 'scope' | 'filters' | 'dialogueFilters'>): SQL {
  const { table, scope } = query;
  const parts: SQL[] = [sql`t.project_id = ${scope.projectId}`];
  // D51: without a namespace the whole project is searched.
  if (scope.namespace !== undefined) parts.push(sql`t.namespace = ${scope.namespace}`);
  if (scope.dialogueId !== undefined && table === 'messages') {
    parts.push(sql`t.dialogue_id = ${scope.dialogueId}`);
  }
  parts.push(...objectFilterSql(table, 't', query.filters));
  if (query.dialogueFilters && hasObjectFilters(query.dialogueFilters) && table === 'messages') {
    const inner = objectFilterSql('dialogues', 'd', query.dialogueFilters);
    parts.push(sql`EXISTS (SELECT 1 FROM dialogues d
      WHERE d.project_id = t.project_id AND d.id = t.dialogue_id AND ${sql.join(inner, sql` AND `)})`);
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

export type QueryVector = CandidateQuery['vector'];

const distanceOf = (vector: NonNullable<QueryVector>): SQL =>
  sql`${embeddingExpression(vector.embedder, 't')} <=> ${queryVector(vector.embedder, vector.values)}`;

/** Both signals for the candidate keys `c` of `table`, in one statement. */
function scoredStatement(
  table: SearchTable,
  projectId: string,
  text: string,
  vector: QueryVector,
  c: SQL,
): SQL {
  const from = sql.raw(`${table} AS t`);
  const cosine = vector
    ? sql`CASE WHEN ${modelPredicate(vector.embedder, 't')} THEN 1 - (${distanceOf(vector)}) END`
    : sql`NULL::float8`;
  return sql`
    WITH q AS (
      SELECT replace(plainto_tsquery('english', ${text})::text, ' & ', ' | ')::tsquery AS tsq,
        tsvector_to_array(to_tsvector('english', ${text})) AS lexemes
    ),
    c AS (${c})
    SELECT c."dialogueId", c.id, ${cosine} AS cosine,
      ts_rank_cd(t.search_vector, q.tsq) AS rank,
      (SELECT count(*) FROM unnest(q.lexemes) AS l WHERE t.search_vector @@ quote_literal(l)::tsquery)::int AS matched,
      cardinality(q.lexemes) AS "lexemeCount"
    FROM c JOIN ${from} ON t.project_id = ${projectId} AND ${joinOnKey[table]}, q`;
}

const toCandidate = (row: CandidateRow): CandidateRow => ({
  dialogueId: row.dialogueId,
  id: row.id,
  cosine: row.cosine === null ? null : Number(row.cosine),
  rank: Number(row.rank),
  matched: Number(row.matched),
  lexemeCount: Number(row.lexemeCount),
});

/** The candidates of one table, scored by both signals. */
export async function findCandidates(db: Executor, query: CandidateQuery): Promise<CandidateRow[]> {
  const { table, vector, k } = query;
  const from = sql.raw(`${table} AS t`);
  const where = whereSql(query);
  const branches: SQL[] = [];
  if (query.lexical) {
    branches.push(sql`(SELECT ${keyColumns[table]} FROM ${from}, q
      WHERE ${where} AND t.search_vector @@ q.tsq
      ORDER BY ts_rank_cd(t.search_vector, q.tsq) DESC LIMIT ${k})`);
  }
  if (vector) {
    branches.push(sql`(SELECT ${keyColumns[table]} FROM ${from}
      WHERE ${where} AND ${modelPredicate(vector.embedder, 't')}
      ORDER BY ${distanceOf(vector)} LIMIT ${k})`);
  }
  if (branches.length === 0) return [];
  const statement = scoredStatement(
    table,
    query.scope.projectId,
    query.text,
    vector,
    sql.join(branches, sql` UNION `),
  );

  // pgvector 0.8: with filters, an HNSW scan keeps going until it has enough rows that pass them,
  // instead of returning the few of its first ef_search neighbours that happen to pass.
  const rows = vector
    ? await db.transaction(async (tx) => {
        await tx.execute(sql`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, k))}`));
        return rowsOf<CandidateRow>(await tx.execute(statement));
      })
    : rowsOf<CandidateRow>(await db.execute(statement));
  return rows.map(toCandidate);
}

export interface MatchQuery {
  projectId: string;
  dialogueIds: string[];
  text: string;
  vector: QueryVector;
  lexical: boolean;
  /** Candidates per dialogue from each signal. */
  perDialogue: number;
}

/**
 * D59 `matches`: the best messages of each given dialogue, scored as message candidates are.
 * Each dialogue is searched on its own (its rows through the primary key's dialogue prefix), the
 * semantic part exactly: the HNSW index would rank the whole project's messages.
 */
export async function findMatches(db: Executor, query: MatchQuery): Promise<CandidateRow[]> {
  const { projectId, vector, perDialogue } = query;
  if (query.dialogueIds.length === 0) return [];
  const branches: SQL[] = [];
  const inDialogue = sql`t.project_id = ${projectId} AND t.dialogue_id = d.id`;
  if (query.lexical) {
    branches.push(sql`(SELECT t.dialogue_id AS "dialogueId", t.id FROM messages t, q
      WHERE ${inDialogue} AND t.search_vector @@ q.tsq
      ORDER BY ts_rank_cd(t.search_vector, q.tsq) DESC, t.id LIMIT ${perDialogue})`);
  }
  if (vector) {
    // Ordered by similarity rather than by distance, so that the planner cannot pick the HNSW index.
    branches.push(sql`(SELECT t.dialogue_id AS "dialogueId", t.id FROM messages t
      WHERE ${inDialogue} AND ${modelPredicate(vector.embedder, 't')}
      ORDER BY 1 - (${distanceOf(vector)}) DESC, t.id LIMIT ${perDialogue})`);
  }
  if (branches.length === 0) return [];
  const candidates = sql`SELECT m."dialogueId", m.id FROM unnest(${textArray(query.dialogueIds)}) AS d(id),
    LATERAL (${sql.join(branches, sql` UNION `)}) AS m`;
  const statement = scoredStatement('messages', projectId, query.text, vector, candidates);
  return rowsOf<CandidateRow>(await db.execute(statement)).map(toCandidate);
}
