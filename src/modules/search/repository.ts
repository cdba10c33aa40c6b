import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';
import type { Embedder } from '../../embedders/embedder.js';
import { inLiveDialogue, liveDialogueAs } from '../dialogues/expiry-sql.js';
import {
  embeddingExpression,
  type IndexPrecision,
  indexedDistance,
  modelPredicate,
  queryVector,
} from '../embeddings/vector-sql.js';
import { estimatedRows } from '../../db/estimate.js';
import { retentionTime } from '../../db/schema.js';
import { outsideErasures } from '../erasures/erasing-sql.js';
import { liveMemoryAs } from '../memories/expiry-sql.js';
import {
  type InstantRange,
  type MetadataCondition,
  type ObjectFilters,
  hasObjectFilters,
} from './filters.js';

// D40: candidates come from two indexes, the HNSW index of the configured model and the GIN
// full-text index; both are scored over their union in the same statement. Every filter (D51,
// D59) and what no read shows (D169) sits inside both candidate queries, so a filtered search
// cannot lose its hits to rows that fail the filter or to other tenants' rows (and never sees
// them), and nothing is filtered after the page.

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
  /** Cosine similarity to the centre of generic questions (the hub penalty, D141); null without. */
  hub: number | null;
  /** The query's lexemes the row holds, with their occurrences in it. */
  terms: Record<string, number>;
  /** The row's length: occurrences of all its lexemes. */
  length: number;
  /** ts_rank_cd of the row against the OR of the query's lexemes: how close together they stand. */
  rank: number;
  /** A message's: the id of the message before it in its dialogue (D181); null for other kinds. */
  previousId: string | null;
}

/**
 * D140: what BM25 weighs the query's words by, read from search_terms: the rows of the searched
 * kind in the scope (a namespace, or the whole project), their total length, and per query
 * lexeme the rows that hold it.
 */
export interface TermStats {
  table: SearchTable;
  lexemes: string[];
  documents: number;
  length: number;
  frequencies: Record<string, number>;
}

const STATS_KIND: Record<SearchTable, string> = {
  messages: 'message',
  dialogues: 'dialogue',
  memories: 'memory',
};

/** The query's lexemes and their statistics: the rows of its own words only, whatever the project's size. */
export async function readTermStats(
  db: Executor,
  query: { table: SearchTable; projectId: string; namespace?: string; text: string },
): Promise<TermStats> {
  const [row] = rowsOf<{ lexemes: string[]; counts: Record<string, [number, number]> | null }>(
    await db.execute(sql`
      WITH q AS (SELECT tsvector_to_array(to_tsvector('english', ${query.text})) AS lexemes)
      SELECT q.lexemes, (
        SELECT jsonb_object_agg(c.lexeme, jsonb_build_array(c.documents, c.occurrences)) FROM (
          SELECT lexeme, sum(documents) AS documents, sum(occurrences) AS occurrences
          FROM search_terms
          WHERE project_id = ${query.projectId} AND object_type = ${STATS_KIND[query.table]}
            AND scope = ${query.namespace ?? ''} AND lexeme = ANY(q.lexemes || ''::text)
          GROUP BY lexeme) AS c
      ) AS counts
      FROM q`),
  );
  const counts = row?.counts ?? {};
  const all = counts[''] ?? [0, 0];
  const frequencies: Record<string, number> = {};
  for (const [lexeme, [documents]] of Object.entries(counts))
    if (lexeme !== '') frequencies[lexeme] = Number(documents);
  return {
    table: query.table,
    lexemes: row?.lexemes ?? [],
    documents: Number(all[0]),
    length: Number(all[1]),
    frequencies,
  };
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
  /** The query's vector, when semantic candidates are wanted, and the hub's (D141). */
  vector?: { embedder: Embedder; values: number[]; hub?: number[]; precision: IndexPrecision };
  lexical: boolean;
  /** D140: the query's lexemes with their weights (BM25's idf), which order the full-text candidates. */
  weights: Record<string, number>;
  /**
   * D188: the tsqueries of the levels of held weight the full-text candidates are read by, highest
   * first (weightLevels); none: every row holding a word is weighed at once.
   */
  levels?: string[];
  /** Candidates taken from each index. */
  k: number;
  /**
   * D133: at most this many rows in the scope (project, namespace, dialogue) and the semantic
   * candidates are the exact nearest by a distance scan of those rows; more, and the HNSW index
   * finds them. Default EXACT_SCAN_MAX_ROWS.
   */
  exactScanMaxRows?: number;
  /**
   * The rows with words in the project or namespace, from the word counts (TermStats.documents).
   * Past exactScanMaxRows, the scope is known to be large and is not counted (D133).
   */
  wordedRows?: number;
  /** D188: `k` x LEVEL_READS_PER_CANDIDATE, unless a test bounds it otherwise. */
  levelMaxRead?: number;
  /** D186: FILTER_COUNT_MAX_READ, unless a test bounds it lower. */
  filterCountMaxRead?: number;
  /**
   * The store is a Citus cluster. The statement runs on the worker that holds the project, and
   * Citus carries a transaction's SET LOCAL there only when told to (citus.propagate_set_commands).
   */
  distributed?: boolean;
}

/** A candidate query with what was learnt of its scope before its statement is built. */
interface PlannedQuery extends CandidateQuery {
  /**
   * D186: whether the filters leave few rows in the scope, counted through the index of a filter
   * (countFilteredRows). Known, it chooses both plans; undefined, the scope's size does.
   */
  fewFiltered?: boolean;
}

/**
 * D133: SEARCH_EXACT_SCAN_MAX_ROWS's default. Scanning 10,000 vectors of 512 dimensions takes a few
 * milliseconds, about what an HNSW search over a large project costs; below it the exact answer
 * comes at no extra cost, and a small tenant never walks a graph built mostly of other tenants' rows.
 */
export const EXACT_SCAN_MAX_ROWS = 10_000;

/**
 * The summed weights of the query's lexemes a row holds: a row with the rare word comes before
 * rows with common ones. Each lexeme is a constant one-word tsquery, so a row costs one lookup in
 * its tsvector per lexeme.
 */
function heldWeight(weights: Record<string, number>): SQL {
  const entries = Object.entries(weights);
  if (entries.length === 0) return sql`0::float8`;
  const held = entries.map(
    ([lexeme, weight]) =>
      sql`CASE WHEN t.search_vector @@ ${lexemeQuery(lexeme)} THEN ${weight}::float8 ELSE 0 END`,
  );
  return sql`(${sql.join(held, sql` + `)})`;
}

const lexemeQuery = (lexeme: string): SQL => sql`quote_literal(${lexeme}::text)::tsquery`;

const coverDensity = sql`ts_rank_cd(t.search_vector, q.tsq)`;

/**
 * The order of the full-text candidates: the weights they hold (heldWeight), then cover density.
 * Computed on the rows the GIN index matched, as ts_rank_cd alone was.
 */
const lexicalOrder = (weights: Record<string, number>): SQL =>
  sql`${heldWeight(weights)} DESC, ${coverDensity} DESC`;

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

/**
 * The project is given as a value in the correlated subqueries, not read from the row: Citus
 * routes a statement to one shard only when every table in it is pinned to the same project, and
 * the row may come from a subquery (D188's bounded level) whose column it cannot follow.
 */
function hasImageSql(table: SearchTable, alias: string, projectId: string): SQL {
  if (table === 'messages') return messageHasImage(alias);
  if (table === 'dialogues') {
    return sql`EXISTS (SELECT 1 FROM messages m
      WHERE m.project_id = ${projectId} AND m.dialogue_id = ${sql.raw(alias)}.id
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

/** `column` within `range`; `as` is applied to both sides (an index's expression of the column). */
function rangeSql(column: SQL, range: InstantRange, as: (time: SQL) => SQL = (time) => time): SQL[] {
  const parts: SQL[] = [];
  if (range.lower) {
    const op = sql.raw(range.lower.inclusive ? '>=' : '>');
    parts.push(sql`${as(column)} ${op} ${as(sql`${range.lower.at.toISOString()}::timestamptz`)}`);
  }
  if (range.upper) {
    const op = sql.raw(range.upper.inclusive ? '<=' : '<');
    parts.push(sql`${as(column)} ${op} ${as(sql`${range.upper.at.toISOString()}::timestamptz`)}`);
  }
  return parts;
}

/** The D59 filters on the rows of `table` under `alias`. */
/** The tags a row must hold ($all, $in): the conditions the tags indexes serve (D186). */
function heldTagsSql(tags: SQL, filter: ObjectFilters['tags']): SQL[] {
  const parts: SQL[] = [];
  if (filter.all.length > 0) parts.push(sql`${tags} @> ${textArray(filter.all)}`);
  if (filter.any.length > 0) parts.push(sql`${tags} && ${textArray(filter.any)}`);
  return parts;
}

function objectFilterSql(
  table: SearchTable,
  alias: string,
  filters: ObjectFilters,
  projectId: string,
): SQL[] {
  const column = (name: string) => sql.raw(`${alias}.${name}`);
  const { tags } = filters;
  const parts = heldTagsSql(column('tags'), tags);
  if (tags.none.length > 0) parts.push(sql`NOT (${column('tags')} && ${textArray(tags.none)})`);
  for (const condition of filters.metadata) parts.push(metadataSql(alias, condition));
  if (filters.created) parts.push(...rangeSql(column('created'), filters.created));
  if (filters.modified) parts.push(...rangeSql(column('modified'), filters.modified));
  if (filters.hasImage !== undefined) {
    const image = hasImageSql(table, alias, projectId);
    parts.push(filters.hasImage ? image : sql`NOT ${image}`);
  }
  return parts;
}

/** The rows of the scope: the project, and its namespace and dialogue when given (all indexed). */
function scopeSql(table: SearchTable, scope: SearchScope): SQL[] {
  const parts: SQL[] = [sql`t.project_id = ${scope.projectId}`];
  // D51: without a namespace the whole project is searched.
  if (scope.namespace !== undefined) parts.push(sql`t.namespace = ${scope.namespace}`);
  if (scope.dialogueId !== undefined && table === 'messages') {
    parts.push(sql`t.dialogue_id = ${scope.dialogueId}`);
  }
  return parts;
}

/**
 * D169: what no read shows, left out of the candidates rather than dropped after the ranking (which
 * would leave the page short): rows of a namespace being erased (D163), expired dialogues and
 * memories, and the messages of expired dialogues (D150).
 */
function visibleSql(table: SearchTable, projectId: string): SQL[] {
  return [
    outsideErasures(projectId, sql.raw('t.namespace')),
    table === 'messages'
      ? inLiveDialogue(projectId, sql.raw('t.dialogue_id'))
      : table === 'dialogues'
        ? liveDialogueAs('t')
        : liveMemoryAs('t'),
  ];
}

type WhereQuery = Pick<CandidateQuery, 'table' | 'scope' | 'filters' | 'dialogueFilters'>;

/** The rows a search may see at all: its scope, and what a read would show (D169). */
const visibleScopeSql = ({ table, scope }: WhereQuery): SQL =>
  sql.join([...scopeSql(table, scope), ...visibleSql(table, scope.projectId)], sql` AND `);

/** The filters of a search (D59), on its rows and, for messages, on their dialogues. */
function filtersSql(query: WhereQuery): SQL {
  const { table } = query;
  const { projectId } = query.scope;
  const parts = objectFilterSql(table, 't', query.filters, projectId);
  if (query.dialogueFilters && hasObjectFilters(query.dialogueFilters) && table === 'messages') {
    const inner = objectFilterSql('dialogues', 'd', query.dialogueFilters, projectId);
    parts.push(sql`EXISTS (SELECT 1 FROM dialogues d
      WHERE d.project_id = ${projectId} AND d.id = t.dialogue_id AND ${sql.join(inner, sql` AND `)})`);
  }
  return parts.length === 0 ? sql`true` : sql.join(parts, sql` AND `);
}

const whereSql = (query: WhereQuery): SQL => sql`${visibleScopeSql(query)} AND ${filtersSql(query)}`;

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

/**
 * The query's vector as the candidate statement holds it (`q.vector`, scoredStatement): 512
 * numbers as text are sent and parsed once per statement rather than once per branch that reads
 * them. A scalar subquery, so that the planner computes it before the scan and an HNSW index can
 * order by it as by a constant.
 */
const heldQueryVector = sql`(SELECT q.vector FROM q)`;

const distanceOf = (vector: NonNullable<QueryVector>): SQL =>
  sql`${embeddingExpression(vector.embedder, 't')} <=> ${heldQueryVector}`;

/**
 * Both signals for the candidate keys `c` of `table`, in one statement. `q` holds the query's
 * tsqueries: the OR of its words, and the levels of held weight (D188) when there are any. As
 * columns of a CTE they are opaque to the planner, which then reaches the rows that hold them
 * through the GIN index; given as a constant, a query of common-looking words was
 * estimated to match so many rows that every row of the table was read instead. It also holds the
 * query's vector and the hub's (heldQueryVector).
 */
function scoredStatement(
  table: SearchTable,
  projectId: string,
  query: { text: string; vector: QueryVector; levels?: string[] },
  c: SQL,
): SQL {
  const { text, vector, levels } = query;
  const from = sql.raw(`${table} AS t`);
  const similarity = (to: SQL) =>
    vector
      ? sql`CASE WHEN ${modelPredicate(vector.embedder, 't')}
          THEN 1 - (${embeddingExpression(vector.embedder, 't')} <=> ${to}) END`
      : sql`NULL::float8`;
  const vectorOf = (values: number[] | undefined) =>
    vector && values ? queryVector(vector.embedder, values) : sql`NULL::vector`;
  return sql`
    WITH q AS (
      SELECT replace(plainto_tsquery('english', ${text})::text, ' & ', ' | ')::tsquery AS tsq,
        tsvector_to_array(to_tsvector('english', ${text})) AS lexemes,
        ${
          levels?.length
            ? sql`ARRAY[${sql.join(
                levels.map((level) => sql`${level}::tsquery`),
                sql`, `,
              )}]`
            : sql`NULL::tsquery[]`
        } AS levels,
        ${vectorOf(vector?.values)} AS vector, ${vectorOf(vector?.hub)} AS hub
    ),
    c AS (${c})
    SELECT c."dialogueId", c.id, ${similarity(sql`q.vector`)} AS cosine, ${similarity(sql`q.hub`)} AS hub,
      coalesce((SELECT jsonb_object_agg(u.lexeme, greatest(1, cardinality(u.positions)))
        FROM unnest(t.search_vector) AS u WHERE u.lexeme = ANY(q.lexemes)), '{}'::jsonb) AS terms,
      coalesce((SELECT sum(greatest(1, cardinality(u.positions))) FROM unnest(t.search_vector) AS u), 0) AS length,
      ts_rank_cd(t.search_vector, q.tsq) AS rank, ${previousIdOf(table, projectId)} AS "previousId"
    FROM c JOIN ${from} ON t.project_id = ${projectId} AND ${joinOnKey[table]}, q`;
}

/**
 * D181: a message candidate's previous message in its dialogue, one probe of the dialogue order's
 * index: which candidates stand side by side, for the neighbours' share of a score (scoring.ts).
 */
const previousIdOf = (table: SearchTable, projectId: string): SQL =>
  table === 'messages'
    ? sql`(SELECT p.id FROM messages p
        WHERE p.project_id = ${projectId} AND p.dialogue_id = t.dialogue_id
          AND (p.created, p.seq) < (t.created, t.seq)
        ORDER BY p.created DESC, p.seq DESC LIMIT 1)`
    : sql`NULL::text`;

const toCandidate = (row: CandidateRow): CandidateRow => ({
  dialogueId: row.dialogueId,
  id: row.id,
  cosine: row.cosine === null ? null : Number(row.cosine),
  hub: row.hub === null ? null : Number(row.hub),
  terms: typeof row.terms === 'string' ? (JSON.parse(row.terms) as Record<string, number>) : row.terms,
  length: Number(row.length),
  rank: Number(row.rank),
  previousId: row.previousId ?? null,
});

/**
 * D133: the `k` nearest rows by the query's vector, by one of two plans chosen in the statement
 * itself. `small` counts the scope's rows through its index, stopping past the limit; when they
 * are few, their distances are all computed at full precision and the answer is exact (`+ 0`
 * keeps PGlite's full-precision index, D175, out of that ORDER BY); when they are many, the HNSW
 * index (of half-precision vectors on PostgreSQL, D172) walks its graph. Each plan sits under a
 * one-time filter: the one not chosen never runs. A project or namespace whose word counts already
 * hold more rows than the limit is large without counting (the count was a sixth of a search's
 * statement at 10^5 rows): the HNSW plan alone is sent.
 */
function semanticBranch(query: PlannedQuery, where: SQL, vector: NonNullable<QueryVector>): SQL {
  const { table, k } = query;
  const from = sql.raw(`${table} AS t`);
  const maxRows = query.exactScanMaxRows ?? EXACT_SCAN_MAX_ROWS;
  const model = modelPredicate(vector.embedder, 't');
  const exact = (condition: SQL) => sql`(SELECT ${keyColumns[table]} FROM ${from}
      WHERE ${condition} ${where} AND ${model}
      ORDER BY (${distanceOf(vector)}) + 0 LIMIT ${k})`;
  const byIndex = (condition: SQL) => sql`(SELECT ${keyColumns[table]} FROM ${from}
      WHERE ${condition} ${where} AND ${model}
      ORDER BY ${indexedDistance(vector.embedder, vector.precision, 't', heldQueryVector)} LIMIT ${k})`;
  // D186: the filtered rows are counted already.
  if (query.fewFiltered !== undefined) return query.fewFiltered ? exact(sql``) : byIndex(sql``);
  const knownLarge = query.scope.dialogueId === undefined && (query.wordedRows ?? 0) > maxRows;
  if (knownLarge) return byIndex(sql``);
  const small = sql`(SELECT small FROM scope_size)`;
  return sql`(WITH scope_size AS MATERIALIZED (
      SELECT count(*) <= ${maxRows} AS small
      FROM (SELECT 1 FROM ${from} WHERE ${sql.join(scopeSql(table, query.scope), sql` AND `)} LIMIT ${maxRows + 1}) AS s
    )
    ${exact(sql`${small} AND`)}
    UNION ALL
    ${byIndex(sql`NOT ${small} AND`)})`;
}

/**
 * D173: whether the word counts show the scope to be small. Messages and memories nearly all have
 * words, so their counts bound the scope's rows; many dialogues have none, and theirs never do.
 */
const knownSmallScope = (query: CandidateQuery): boolean =>
  query.table !== 'dialogues' &&
  query.wordedRows !== undefined &&
  query.wordedRows <= (query.exactScanMaxRows ?? EXACT_SCAN_MAX_ROWS);

/** D186: once the filtered rows are counted, their number decides, for dialogues too. */
const smallScope = (query: PlannedQuery): boolean => query.fewFiltered ?? knownSmallScope(query);

/**
 * D173: whether a row holds any word of `tsquery`. In a scope of messages or memories that the
 * word counts know to be small (at most SEARCH_EXACT_SCAN_MAX_ROWS rows with words, the bound of
 * D133's exact vector scan), the test is a filter on the scope's own rows, which the planner reads
 * through the scope's btree index: the GIN index holds every project's rows, and a small project's
 * query word would bring in every row of the table holding it, the large tenant's included, to be
 * dropped after. Messages and memories nearly all have words, so their counts bound the scope's
 * rows; many dialogues have none (no label, tags or summary), and theirs always go through GIN, as
 * do large or uncounted scopes.
 */
function holdsWords(query: PlannedQuery): (tsquery: SQL) => SQL {
  // Wrapped in a function call, the match is no index condition: the planner cannot use GIN for it.
  return smallScope(query)
    ? (tsquery) => sql`coalesce(t.search_vector @@ ${tsquery}, false)`
    : (tsquery) => sql`t.search_vector @@ ${tsquery}`;
}

/**
 * D188: through the GIN index, at most this many rows of one level of held weight are read per
 * candidate wanted. Each is a heap row read at random: about 20 us on the 2-core machine when the
 * operating system caches it, 0.3-0.5 ms when it comes from the disk, and a level of common words
 * held by 50,000 rows took 400 ms. Past the bound, the level's rows are those the index hands out
 * first (the oldest), ranked as any others: the best `k` of ten times as many.
 */
const LEVEL_READS_PER_CANDIDATE = 10;

/**
 * The `k` full-text candidates: the rows holding any of the query's words, in lexicalOrder. Cover
 * density costs as much as the rest of that order, so it is computed only for the rows heaviest by
 * held weight (the best `k`, with every row tied with the last), which alone can be among the `k`.
 *
 * D188: where the GIN index finds the rows, they are read by levels of held weight (q.levels, from
 * weightLevels), highest first: each level's rows are those whose held weight reaches it and not
 * the level above's, and a level is read only while fewer than `k` rows were found above it (a
 * one-time filter: otherwise that part never runs), the rows holding a word but reaching no level
 * last. Every row left unread weighs less than each row read, so the answer is the same as ranking
 * every matching row; the rows holding only some of the query's common words, most of them, are
 * not read. At most `levelMaxRead` rows of a level are read, the filters tested on those. A small
 * scope's rows are read one by one (holdsWords), once, whole.
 */
function lexicalBranch(query: PlannedQuery): SQL {
  const { table, k, weights } = query;
  const holds = holdsWords(query);
  const from = sql.raw(`${table} AS t`);
  const small = smallScope(query);
  const weighed = (rows: SQL, condition: SQL) => sql`SELECT * FROM (
      SELECT ${keyColumns[table]}, ${heldWeight(weights)} AS held, t.search_vector
      FROM ${rows}, q WHERE ${condition}
    ) AS level ORDER BY held DESC FETCH FIRST (${k}) ROWS WITH TIES`;
  // D188: through the GIN index, at most this many rows of a level are read, and the filters are
  // tested on those: as index conditions they would add their own index's rows to every level's
  // (a tag of a tenth of 10^6 rows took 90 ms a level), and rows failing them would still be read.
  const maxRead = query.levelMaxRead ?? k * LEVEL_READS_PER_CANDIDATE;
  const heaviest = (condition: SQL) =>
    small
      ? weighed(from, sql`${whereSql(query)} AND ${condition}`)
      : weighed(
          sql`(SELECT t.* FROM ${from}, q WHERE ${visibleScopeSql(query)} AND ${condition} LIMIT ${maxRead}) AS t`,
          filtersSql(query),
        );
  const best = (rows: SQL) => sql`SELECT r."dialogueId", r.id FROM (${rows}) AS r, q
    ORDER BY r.held DESC, ts_rank_cd(r.search_vector, q.tsq) DESC LIMIT ${k}`;
  const levels = small ? 0 : (query.levels?.length ?? 0);
  if (levels === 0) return sql`(${best(heaviest(holds(sql`q.tsq`)))})`;
  const level = (n: number) => sql.raw(`q.levels[${n}]`);
  const reads = [
    level(1),
    ...Array.from({ length: levels - 1 }, (_, i) => sql`(${level(i + 2)} && !! ${level(i + 1)})`),
    sql`(q.tsq && !! ${level(levels)})`,
  ];
  const name = (i: number) => sql.raw(`level_${i + 1}`);
  const parts = reads.map((read, i) => {
    const foundAbove = sql.join(
      Array.from({ length: i }, (_, above) => sql`(SELECT count(*) FROM ${name(above)})`),
      sql` + `,
    );
    const condition = i === 0 ? holds(read) : sql`${foundAbove} < ${k} AND ${holds(read)}`;
    return sql`${name(i)} AS MATERIALIZED (${heaviest(condition)})`;
  });
  const everyLevel = sql.join(
    reads.map((_, i) => sql`SELECT * FROM ${name(i)}`),
    sql` UNION ALL `,
  );
  return sql`(WITH ${sql.join(parts, sql`, `)} ${best(everyLevel)})`;
}

/**
 * D186: the filters that an index of `table` finds the rows of: tags (messages_tags_idx and its
 * kind), the creation time (messages: through the retention index's expression; dialogues and
 * memories: their list index) and, but for messages, the modification time.
 */
function indexedFilterSql(table: SearchTable, filters: ObjectFilters): SQL[] {
  const parts = heldTagsSql(sql.raw('t.tags'), filters.tags);
  if (filters.created) {
    const created = sql.raw('t.created');
    parts.push(
      ...(table === 'messages'
        ? rangeSql(created, filters.created, retentionTime)
        : rangeSql(created, filters.created)),
    );
  }
  if (filters.modified && table !== 'messages')
    parts.push(...rangeSql(sql.raw('t.modified'), filters.modified));
  return parts;
}

/**
 * D186: at most this many rows are read to count what a search's filters leave: pgvector's
 * `hnsw.max_scan_tuples` default, the most rows the filtered HNSW walk visits. The count never
 * reads more rows than the walk it may spare; past it, the filtered rows stay uncounted.
 */
const FILTER_COUNT_MAX_READ = 20_000;

/**
 * D186: the most filtered rows that are "few": scanned exactly, and tested for the query's words
 * one by one. To find `k` rows that pass filters keeping F of a scope's N rows, the HNSW walk visits
 * about k x N / F of them; the exact scan computes F distances, each about twice a visit's cost (a
 * vector read from TOAST, D180: 6.7 against 2.9 us measured at 10^5). The exact scan is the cheaper
 * while 2 x F x F <= k x N, and never past the exact-scan bound of D133.
 */
const fewFilteredRows = (query: CandidateQuery, scopeRows: number): number =>
  Math.min(query.exactScanMaxRows ?? EXACT_SCAN_MAX_ROWS, Math.floor(Math.sqrt((query.k * scopeRows) / 2)));

/**
 * D186: whether the filters leave few rows (fewFilteredRows) of a large scope, counted through the
 * index of one of them; 0 when they leave none (the search then has no candidates). Undefined when
 * there is nothing to count by: no filter has an index, the scope is one dialogue or known to be
 * small, the planner expects the indexed filters to find more than FILTER_COUNT_MAX_READ rows, or
 * that many were read before the count was known. Rows no read shows
 * are counted too (visibleSql is left out): the count bounds the candidates from above.
 */
async function countFilteredRows(
  db: Executor,
  query: CandidateQuery,
): Promise<{ rows: number; few: boolean } | undefined> {
  const { table, scope, filters } = query;
  const indexed = indexedFilterSql(table, filters);
  if (scope.dialogueId !== undefined || knownSmallScope(query) || indexed.length === 0) return undefined;
  const few = fewFilteredRows(query, query.wordedRows ?? query.exactScanMaxRows ?? EXACT_SCAN_MAX_ROWS);
  const from = sql.raw(`${table} AS t`);
  const found = sql.join([...scopeSql(table, scope), ...indexed], sql` AND `);
  const read = query.filterCountMaxRead ?? FILTER_COUNT_MAX_READ;
  // The statistics of an indexed filter (a tag's share of the rows, a time range's) are good: when
  // they say it finds more rows than the count may read, the count would only give up. A scope
  // that holds fewer is counted without asking.
  const mayGiveUp = (query.wordedRows ?? Number.POSITIVE_INFINITY) > read;
  if (mayGiveUp && (await estimatedRows(db, sql`SELECT 1 FROM ${from} WHERE ${found}`)) > read)
    return undefined;
  const passes = sql.join(objectFilterSql(table, 't', filters, scope.projectId), sql` AND `);
  // The rows the indexed filters find, numbered as they are read; the scan stops at `read` rows or
  // as soon as one more than `few` passes every filter, whichever comes first. The row numbered
  // `read` is kept to tell a count cut short from a complete one.
  const [row] = rowsOf<{ passing: number; cut: boolean }>(
    await db.execute(sql`
      SELECT count(*) FILTER (WHERE f.passes)::int AS passing, coalesce(bool_or(f.n = ${read}), false) AS cut
      FROM (
        SELECT e.passes, e.n FROM (
          SELECT ${passes} AS passes, row_number() OVER () AS n
          FROM ${from} WHERE ${found}
          LIMIT ${read}
        ) AS e
        WHERE e.passes OR e.n = ${read}
        LIMIT ${few + 2}
      ) AS f`),
  );
  const passing = Number(row?.passing ?? 0);
  if (passing > few) return { rows: passing, few: false };
  return row?.cut ? undefined : { rows: passing, few: true };
}

/** The candidates of one table, scored by both signals. */
export async function findCandidates(db: Executor, candidateQuery: CandidateQuery): Promise<CandidateRow[]> {
  const filtered = await countFilteredRows(db, candidateQuery);
  // D186: nothing in the scope passes the filters.
  if (filtered?.rows === 0) return [];
  const query: PlannedQuery = { ...candidateQuery, fewFiltered: filtered?.few };
  const { table, vector, k } = query;
  const where = whereSql(query);
  const branches: SQL[] = [];
  if (query.lexical) branches.push(lexicalBranch(query));
  if (vector) branches.push(semanticBranch(query, where, vector));
  if (branches.length === 0) return [];
  const statement = scoredStatement(
    table,
    query.scope.projectId,
    { text: query.text, vector, levels: query.lexical ? query.levels : undefined },
    sql.join(branches, sql` UNION `),
  );

  // Set for this transaction only, as SET LOCAL: on Citus the only form carried to the worker that
  // runs the statement (D182); a SELECT of set_config would be planned on the coordinator alone.
  // - pgvector 0.8: with filters, an HNSW scan keeps going until it has enough rows that pass them,
  //   instead of returning the few of its first ef_search neighbours that happen to pass.
  // - No parallel workers. The exact-scan plan that a one-time filter leaves unrun was still given
  //   a Gather whose workers started: at 10^5 rows that was a third of the statement's time, and on
  //   a loaded 2-core server the workers only compete with other requests.
  const rows = vector
    ? await db.transaction(async (tx) => {
        if (query.distributed) await tx.execute(sql`SET LOCAL citus.propagate_set_commands = local`);
        await tx.execute(sql`SET LOCAL hnsw.iterative_scan = relaxed_order`);
        await tx.execute(sql.raw(`SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(40, k))}`));
        await tx.execute(sql`SET LOCAL max_parallel_workers_per_gather = 0`);
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
  weights: Record<string, number>;
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
      ORDER BY ${lexicalOrder(query.weights)}, t.id LIMIT ${perDialogue})`);
  }
  if (vector) {
    // At full precision, by similarity rather than distance: no HNSW index can serve this order
    // (PGlite's holds full-precision vectors, D175).
    branches.push(sql`(SELECT t.dialogue_id AS "dialogueId", t.id FROM messages t
      WHERE ${inDialogue} AND ${modelPredicate(vector.embedder, 't')}
      ORDER BY 1 - (${distanceOf(vector)}) DESC, t.id LIMIT ${perDialogue})`);
  }
  if (branches.length === 0) return [];
  const candidates = sql`SELECT m."dialogueId", m.id FROM unnest(${textArray(query.dialogueIds)}) AS d(id),
    LATERAL (${sql.join(branches, sql` UNION `)}) AS m`;
  const statement = scoredStatement('messages', projectId, { text: query.text, vector }, candidates);
  return rowsOf<CandidateRow>(await db.execute(statement)).map(toCandidate);
}
