import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { estimatedRows } from '../../src/db/estimate.js';
import { ensureVectorIndexes, indexPrecisionOf } from '../../src/modules/embeddings/vector-sql.js';
import { dateRange, metadataConditions, tagFilter } from '../../src/modules/search/filters.js';
import { type CandidateQuery, findCandidates } from '../../src/modules/search/repository.js';
import { type TestDatabase, createTestDatabase, testServerIsCitus } from '../helpers/database.js';
import { cosine, directVectorsEmbedder, vectorOf, walkedHnsw } from '../helpers/plan-vectors.js';
import { explainingExecutor } from '../helpers/explain.js';

// D186: a filtered search in a large scope first counts the rows its filters leave, through the
// index of a filter (tags, or a time range). None: no candidate statement runs. Few: the semantic
// candidates are the exact nearest of those rows and their words are tested row by row. Many, or
// a count that would read too much: the HNSW index is walked, as without the count. Each plan is
// read back from EXPLAIN ANALYZE of the statement the search ran.

const embedder = directVectorsEmbedder('filtered-plan-model');

const PROJECT = 'prj_filtered';
const ROWS = 2_000;
const START = Date.parse('2025-01-01T00:00:00Z');
/** Every message: its vector, tags and words. Every second is `common`, every 200th `rare`. */
const seeded = Array.from({ length: ROWS }, (_, n) => ({
  id: `msg_${n}`,
  vector: vectorOf(n + 1),
  tags: [...(n % 2 === 0 ? ['common'] : []), ...(n % 200 === 0 ? ['rare'] : [])],
  text: n % 3 === 0 ? 'harbour lantern' : 'quiet meadow',
  created: new Date(START + n * 60_000),
}));

let database: TestDatabase;

async function seed(db: Database) {
  await db.execute(
    sql`INSERT INTO projects (id, name) VALUES (${PROJECT}, ${PROJECT}), ('prj_other', 'other')`,
  );
  await db.execute(
    sql`INSERT INTO dialogues (project_id, id) VALUES (${PROJECT}, 'dlg_1'), ('prj_other', 'dlg_1')`,
  );
  for (let from = 0; from < ROWS; from += 500) {
    const rows = seeded.slice(from, from + 500).map(
      (
        m,
      ) => sql`(${PROJECT}, 'dlg_1', ${m.id}, 'user', ${JSON.stringify(m.text)}, ${m.text.length}, ${m.text},
        ${`[${m.vector.join(',')}]`}::vector, ${embedder.id}, ${`{${m.tags.join(',')}}`}::text[],
        ${m.created.toISOString()}::timestamptz)`,
    );
    await db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text,
        embedding, embedding_model, tags, created)
      VALUES ${sql.join(rows, sql`, `)}`);
  }
  // Another project's rows with the same tags: never counted, never found.
  await db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text,
      embedding, embedding_model, tags)
    SELECT 'prj_other', 'dlg_1', 'msg_' || i, 'user', '"harbour lantern"', 15, 'harbour lantern',
      ${`[${vectorOf(1).join(',')}]`}::vector, ${embedder.id}, ARRAY['rare', 'common']
    FROM generate_series(1, 300) AS i`);
}

beforeAll(async () => {
  database = await createTestDatabase();
  await seed(database.handle.db);
  await ensureVectorIndexes(database.handle, embedder);
  await database.handle.db.execute(sql`ANALYZE messages`);
});
afterAll(async () => {
  await database?.close();
});

const noFilters = () => ({ tags: tagFilter([], undefined), metadata: [] });
const queryVector = vectorOf(777_777);

/**
 * A search of the project past the exact-scan bound (500 of its 2,000 rows): with k = 5, "few"
 * filtered rows are at most sqrt(5 x 2,000) = 100.
 */
function candidateQuery(query: Partial<CandidateQuery>): CandidateQuery {
  return {
    table: 'messages',
    scope: { projectId: PROJECT },
    filters: noFilters(),
    text: 'unmatched words',
    weights: {},
    lexical: false,
    k: 5,
    exactScanMaxRows: 500,
    wordedRows: ROWS,
    vector: { embedder, values: queryVector, precision: indexPrecisionOf(database.handle.kind, embedder) },
    ...query,
  };
}

/** The candidates and the plan of every candidate statement that ran (none when there was no need). */
async function candidatesWithPlans(query: Partial<CandidateQuery>) {
  const plans: string[] = [];
  const rows = await findCandidates(explainingExecutor(database.handle.db, plans), candidateQuery(query));
  return { rows, plans };
}

/** Whether the HNSW index was walked (a scan of it ran). */
const walked = (plan: string) => walkedHnsw(plan, database.handle, embedder);

/** The `k` nearest of the rows that `keep` keeps, by computing every similarity here. */
const nearest = (keep: (row: (typeof seeded)[number]) => boolean, k = 5) =>
  seeded
    .filter(keep)
    .map((row) => ({ id: row.id, similarity: cosine(row.vector, queryVector) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, k)
    .map((row) => row.id);

const byCosine = (rows: { id: string; cosine: number | null }[]) =>
  [...rows].sort((a, b) => b.cosine! - a.cosine!).map((row) => row.id);

describe('a filtered search in a large scope (D186)', () => {
  it('scans the few rows a tag leaves exactly: the same as a brute-force ranking of them', async () => {
    const { rows, plans } = await candidatesWithPlans({
      filters: { ...noFilters(), tags: tagFilter(['rare'], undefined) },
    });
    expect(plans).toHaveLength(1);
    expect(walked(plans[0]!)).toBe(false);
    expect(plans[0]).not.toMatch(/One-Time Filter/);
    expect(byCosine(rows)).toEqual(nearest((row) => row.tags.includes('rare')));
  });

  it('walks the HNSW index when the filters leave many rows, and finds the nearest of them', async () => {
    const { rows, plans } = await candidatesWithPlans({
      filters: { ...noFilters(), tags: tagFilter([], { $in: ['common'] }) },
    });
    expect(plans).toHaveLength(1);
    if (!(await testServerIsCitus())) expect(walked(plans[0]!)).toBe(true);
    expect(rows.map((row) => row.id).sort()).toEqual(nearest((row) => row.tags.includes('common')).sort());
  });

  it('runs no candidate statement when nothing passes the filters', async () => {
    for (const filters of [
      { ...noFilters(), tags: tagFilter(['absent'], undefined) },
      // Every message was written in 2025.
      {
        ...noFilters(),
        tags: tagFilter(['rare'], undefined),
        created: dateRange({ lt: '2024-06-01' }, 'UTC'),
      },
      { ...noFilters(), created: dateRange({ gte: '2030-01-01' }, 'UTC') },
    ]) {
      const { rows, plans } = await candidatesWithPlans({
        filters,
        lexical: true,
        text: 'lantern',
        weights: { lantern: 1 },
      });
      expect(rows).toEqual([]);
      expect(plans).toEqual([]);
    }
  });

  it('counts by a creation range alone: a span of 30 minutes is scanned exactly', async () => {
    const range = {
      gte: new Date(START + 100 * 60_000).toISOString(),
      lt: new Date(START + 130 * 60_000).toISOString(),
    };
    const { rows, plans } = await candidatesWithPlans({
      filters: { ...noFilters(), created: dateRange(range, 'UTC') },
    });
    expect(plans).toHaveLength(1);
    expect(walked(plans[0]!)).toBe(false);
    const inRange = (row: (typeof seeded)[number]) =>
      row.created.getTime() >= Date.parse(range.gte) && row.created.getTime() < Date.parse(range.lt);
    expect(byCosine(rows)).toEqual(nearest(inRange));
  });

  it("tests the few rows' words one by one, without the full-text index, and finds every match", async () => {
    const { rows, plans } = await candidatesWithPlans({
      filters: { ...noFilters(), tags: tagFilter(['rare'], undefined) },
      vector: undefined,
      lexical: true,
      text: 'lantern',
      weights: { lantern: 1 },
    });
    expect(plans).toHaveLength(1);
    expect(plans[0]).not.toContain('messages_search_idx');
    const expected = seeded.filter((row) => row.tags.includes('rare') && row.text.includes('lantern'));
    expect(rows.map((row) => row.id).sort()).toEqual(expected.map((row) => row.id).sort());
  });

  it('does not count when the statistics say the indexed filter finds more rows than the count may read', async () => {
    // The tag finds 1,000 rows and the metadata condition keeps none of them: only reading them all
    // could tell. With a bound of 50 rows read, the statistics (1,000 rows) say the count would give
    // up, and the candidate statement runs without it.
    const filters = {
      ...noFilters(),
      tags: tagFilter([], { $in: ['common'] }),
      metadata: metadataConditions({ channel: 'fax' }),
    };
    const bounded = await candidatesWithPlans({ filters, filterCountMaxRead: 50 });
    expect(bounded.plans).toHaveLength(1);
    expect(bounded.rows).toEqual([]);
    const counted = await candidatesWithPlans({ filters });
    expect(counted.plans).toEqual([]);
  });

  it('gives the count up after its bound of rows read, when the statistics were wrong', async () => {
    // Tagged after the statistics were taken: they know nothing of `late`, and the count is tried.
    await database.handle.db.execute(
      sql`UPDATE messages SET tags = tags || ARRAY['late'] WHERE project_id = ${PROJECT} AND tags @> ARRAY['common']`,
    );
    const filters = {
      ...noFilters(),
      tags: tagFilter(['late'], undefined),
      metadata: metadataConditions({ channel: 'fax' }),
    };
    const cut = await candidatesWithPlans({ filters, filterCountMaxRead: 50 });
    expect(cut.plans).toHaveLength(1);
    expect(cut.rows).toEqual([]);
    const counted = await candidatesWithPlans({ filters });
    expect(counted.plans).toEqual([]);
  });

  it("reads the planner's estimate of a statement's rows, also of a statement Citus sends to a worker", async () => {
    const rows = await estimatedRows(
      database.handle.db,
      sql`SELECT 1 FROM messages WHERE project_id = ${PROJECT} AND tags && ARRAY['common']::text[]`,
    );
    // 1,000 rows hold the tag. Citus's own figure for a statement it routes is a fixed 100,000.
    expect(rows).toBeGreaterThan(300);
    expect(rows).toBeLessThan(3_000);
  });

  it('does not count a scope known to be small, nor a search without an indexed filter', async () => {
    const small = await candidatesWithPlans({
      filters: { ...noFilters(), tags: tagFilter(['absent'], undefined) },
      wordedRows: 400,
    });
    // Counted, nothing would have run; uncounted, the candidate statement runs and finds nothing.
    expect(small.plans).toHaveLength(1);
    expect(small.rows).toEqual([]);
    const unindexed = await candidatesWithPlans({
      filters: { ...noFilters(), metadata: metadataConditions({ channel: 'fax' }) },
    });
    expect(unindexed.plans).toHaveLength(1);
    expect(unindexed.rows).toEqual([]);
  });
});
