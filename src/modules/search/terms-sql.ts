import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../../db/client.js';

// D140: the search's word counts (table search_terms) moved by the statements of the modules that
// write searchable text, in their own transactions: published here so that no module imports
// another's repository. A write counts its new rows' words, a delete (or the old text of a change)
// uncounts them, and then prunes the rows it brought to zero, so that no word of deleted text
// stays behind (D73).

export type TermObjectType = 'message' | 'dialogue' | 'memory';

/** Writes that touch one dialogue (or one object) share a bucket: see searchTerms in the schema. */
const BUCKETS = 8;

/**
 * The bucket of a row, from its dialogue (messages) or its own id: `hashtext` is the same on every
 * node, so a later delete finds the bucket its write counted in.
 */
export const termBucket = (key: SQL): SQL => sql`(hashtext(${key}) & ${BUCKETS - 1})`;

export interface TermCount {
  projectId: string;
  objectType: TermObjectType;
  /** 1 to count the rows' words, -1 to uncount them. */
  sign: 1 | -1;
}

/**
 * The upsert that adds (or takes away) the words of the rows `source` yields, as
 * (namespace text, bucket int, vector tsvector), in two scopes: the whole project (scope '') and
 * the row's namespace (a namespace is never empty). Per lexeme: the rows that hold it and its
 * occurrences; on the lexeme '' row: the rows with words and all their occurrences (the collection
 * size and total length that BM25 normalizes by). Returns the rows it changed with their new counts, for
 * the prune. The project is a value, not a column of `source`: Citus routes the statement to one
 * shard.
 */
export const countTermsFrom = (source: SQL, { projectId, objectType, sign }: TermCount): SQL => sql`
  INSERT INTO search_terms (project_id, object_type, scope, bucket, lexeme, documents, occurrences)
  SELECT ${projectId}::text, ${objectType}::text, w.scope, r.bucket, r.lexeme,
    ${sign}::int * count(*), ${sign}::int * sum(r.occurrences)
  FROM (
    SELECT s.namespace, s.bucket, l.lexeme, greatest(1, cardinality(l.positions)) AS occurrences
    FROM (${source}) AS s(namespace, bucket, vector), unnest(s.vector) AS l
    UNION ALL
    SELECT s.namespace, s.bucket, '',
      (SELECT sum(greatest(1, cardinality(l.positions))) FROM unnest(s.vector) AS l)
    FROM (${source}) AS s(namespace, bucket, vector)
    -- A row without words (a dialogue without label or summary) would only shorten the average.
    WHERE length(s.vector) > 0
  ) AS r
  CROSS JOIN LATERAL (VALUES (''), (r.namespace)) AS w(scope)
  WHERE w.scope IS NOT NULL
  GROUP BY w.scope, r.bucket, r.lexeme
  -- In the one order every count takes (see inCountOrder): the rows go in in this order.
  ORDER BY w.scope COLLATE "C", r.lexeme COLLATE "C", r.bucket
  ON CONFLICT (project_id, object_type, scope, lexeme, bucket) DO UPDATE SET
    documents = search_terms.documents + excluded.documents,
    occurrences = search_terms.occurrences + excluded.occurrences
  RETURNING scope, bucket, lexeme, documents`;

interface ChangedTerm {
  scope: string;
  bucket: number;
  lexeme: string;
  documents: number | string;
}

/**
 * The one order in which every statement here writes count rows: scope, lexeme, bucket, the texts
 * by their UTF-8 bytes (PostgreSQL's "C" collation). Two writes whose rows share a bucket lock
 * their common rows in the same order, so neither waits for the other while holding what the
 * other waits for: in whatever order PostgreSQL grouped them, two 50-message appends into dialogues
 * of one bucket deadlocked.
 */
function inCountOrder(a: CountRow, b: CountRow): number {
  return (
    Buffer.compare(Buffer.from(a.scope), Buffer.from(b.scope)) ||
    Buffer.compare(Buffer.from(a.lexeme), Buffer.from(b.lexeme)) ||
    a.bucket - b.bucket
  );
}

interface CountRow {
  scope: string;
  bucket: number;
  lexeme: string;
}

/** Deletes the rows of `changed` (as `countTermsFrom` returned them) that count nothing any more. */
function pruneTerms(
  { projectId, objectType }: Omit<TermCount, 'sign'>,
  changed: ChangedTerm[],
): SQL | undefined {
  const empty = changed.filter((row) => Number(row.documents) <= 0);
  if (empty.length === 0) return undefined;
  return sql`DELETE FROM search_terms
    WHERE project_id = ${projectId} AND object_type = ${objectType} AND documents <= 0
      AND (scope, lexeme, bucket) IN (${sql.join(
        empty.map((row) => sql`(${row.scope}::text, ${row.lexeme}::text, ${row.bucket}::int)`),
        sql`, `,
      )})`;
}

/** Counts (or uncounts) the words of `source`'s rows, then prunes what fell to zero. */
export async function recountTerms(tx: Executor, source: SQL, count: TermCount): Promise<void> {
  const changed = rowsOf<ChangedTerm>(await tx.execute(countTermsFrom(source, count)));
  const prune = pruneTerms(count, changed);
  if (prune) await tx.execute(prune);
}

/** A new searchable text: its row's namespace, the key of its bucket (see termBucket), the text. */
export interface NewText {
  namespace: string | null;
  bucketKey: string;
  text: string;
}

/**
 * Before a dialogue's delete: its words and its messages' (which go with it by the foreign key's
 * cascade) leave the counts.
 */
export async function uncountDialogue(tx: Executor, projectId: string, dialogueId: string): Promise<void> {
  await recountTerms(
    tx,
    sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM messages
      WHERE project_id = ${projectId} AND dialogue_id = ${dialogueId}`,
    { projectId, objectType: 'message', sign: -1 },
  );
  await uncountStored(tx, 'dialogue', projectId, dialogueId);
}

/** Takes a dialogue's or memory's stored words out of the counts (before its text changes or goes). */
export function uncountStored(
  tx: Executor,
  objectType: 'dialogue' | 'memory',
  projectId: string,
  id: string,
): Promise<void> {
  const table = sql.raw(objectType === 'dialogue' ? 'dialogues' : 'memories');
  return recountTerms(
    tx,
    sql`SELECT namespace, ${termBucket(sql`id`)}, search_vector FROM ${table}
      WHERE project_id = ${projectId} AND id = ${id}`,
    { projectId, objectType, sign: -1 },
  );
}

/**
 * Counts the words of new texts of one kind (a write, an import). The texts are split into lexemes
 * by a statement anchored on the project's row (a reference table on Citus: one task, where a
 * statement without a table would be planned apart), and the counts go in as one INSERT of plain
 * values, routed to the project's shard, as the append's other statements are
 * (test/citus/routing.test.ts).
 */
export async function countTexts(
  tx: Executor,
  projectId: string,
  objectType: TermObjectType,
  texts: NewText[],
): Promise<void> {
  if (texts.length === 0) return;
  const words = rowsOf<{ i: number; bucket: number; lexeme: string; occurrences: number }>(
    await tx.execute(sql`
      SELECT x.i::int AS i, ${termBucket(sql`x.key`)} AS bucket, l.lexeme,
        greatest(1, cardinality(l.positions)) AS occurrences
      FROM projects AS p,
        unnest(${textArray(texts.map((t) => t.text))}, ${textArray(texts.map((t) => t.bucketKey))})
          WITH ORDINALITY AS x(text, key, i),
        unnest(to_tsvector('english'::regconfig, x.text)) AS l
      WHERE p.id = ${projectId}`),
  );
  const counts = new Map<
    string,
    { scope: string; bucket: number; lexeme: string; documents: number; occurrences: number }
  >();
  const add = (scope: string, bucket: number, lexeme: string, documents: number, occurrences: number) => {
    const key = `${scope}\u0000${bucket}\u0000${lexeme}`;
    const count = counts.get(key) ?? { scope, bucket, lexeme, documents: 0, occurrences: 0 };
    count.documents += documents;
    count.occurrences += occurrences;
    counts.set(key, count);
  };
  const lengths = new Map<number, { bucket: number; length: number }>();
  for (const word of words) {
    const { namespace } = texts[Number(word.i) - 1]!;
    const bucket = Number(word.bucket);
    const occurrences = Number(word.occurrences);
    for (const scope of namespace === null ? [''] : ['', namespace])
      add(scope, bucket, word.lexeme, 1, occurrences);
    const row = lengths.get(Number(word.i)) ?? { bucket, length: 0 };
    row.length += occurrences;
    lengths.set(Number(word.i), row);
  }
  // Lexeme '': the rows that have words, and their length.
  for (const [i, { bucket, length }] of lengths) {
    const { namespace } = texts[i - 1]!;
    for (const scope of namespace === null ? [''] : ['', namespace]) add(scope, bucket, '', 1, length);
  }
  if (counts.size === 0) return;
  await tx.execute(sql`
    INSERT INTO search_terms (project_id, object_type, scope, bucket, lexeme, documents, occurrences)
    VALUES ${sql.join(
      [...counts.values()]
        .sort(inCountOrder)
        .map(
          (c) =>
            sql`(${projectId}::text, ${objectType}::text, ${c.scope}::text, ${c.bucket}::int, ${c.lexeme}::text, ${c.documents}::bigint, ${c.occurrences}::bigint)`,
        ),
      sql`, `,
    )}
    ON CONFLICT (project_id, object_type, scope, lexeme, bucket) DO UPDATE SET
      documents = search_terms.documents + excluded.documents,
      occurrences = search_terms.occurrences + excluded.occurrences`);
}

const textArray = (values: string[]): SQL =>
  sql`ARRAY[${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )}]::text[]`;
