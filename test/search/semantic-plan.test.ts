import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, rowsOf } from '../../src/db/client.js';
import { ensureVectorIndexes, indexPrecisionOf } from '../../src/modules/embeddings/vector-sql.js';
import { configFrom } from '../../src/config.js';
import {
  type CandidateQuery,
  EXACT_SCAN_MAX_ROWS,
  findCandidates,
} from '../../src/modules/search/repository.js';
import { type TestDatabase, createTestDatabase, testServerIsCitus } from '../helpers/database.js';
import { cosine, directVectorsEmbedder, vectorOf, walkedHnsw } from '../helpers/plan-vectors.js';
import { explainingExecutor, observingExecutor } from '../helpers/explain.js';

// D133: the semantic candidates of a small scope come from an exact distance scan, those of a
// large one from the HNSW index; the statement chooses by counting the scope's rows. A small
// project shares the index with a large one here: its exact answer must equal a brute-force
// ranking, and the HNSW plan must find the same rows. Each plan is read back from EXPLAIN ANALYZE
// of the very statement the search ran, so the test knows which one answered.

const embedder = directVectorsEmbedder('plan-test-model');

let database: TestDatabase;
const SMALL = { projectId: 'prj_small', rows: 300 };
const LARGE = { projectId: 'prj_large', rows: 3_000 };
/** The stored vector of each small-project message, by id. */
const smallVectors = new Map<string, number[]>();

async function seed(db: Database, project: { projectId: string; rows: number }, seedBase: number) {
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${project.projectId}, ${project.projectId})`);
  await db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES (${project.projectId}, 'dlg_1')`);
  for (let from = 0; from < project.rows; from += 500) {
    const rows = Array.from({ length: Math.min(500, project.rows - from) }, (_, i) => {
      const n = from + i;
      const vector = vectorOf(seedBase + n);
      if (project === SMALL) smallVectors.set(`msg_${n}`, vector);
      return sql`(${project.projectId}, 'dlg_1', ${`msg_${n}`}, 'user', '"x"', 1, ${`[${vector.join(',')}]`}::vector, ${embedder.id})`;
    });
    await db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, embedding, embedding_model)
      VALUES ${sql.join(rows, sql`, `)}`);
  }
}

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await seed(db, SMALL, 1);
  await seed(db, LARGE, 100_000);
  await ensureVectorIndexes(database.handle, embedder);
  await db.execute(sql`ANALYZE messages`);
});
afterAll(async () => {
  await database?.close();
});

/** A semantic candidate query of the small project (unless `scope` says otherwise) for `queryVector`. */
function candidateQuery(query: Partial<CandidateQuery> & { queryVector: number[] }): CandidateQuery {
  return {
    table: 'messages',
    scope: { projectId: SMALL.projectId },
    filters: { tags: { all: [], any: [], none: [] }, metadata: [] },
    text: 'unmatched words',
    weights: {},
    lexical: false,
    k: 10,
    ...query,
    vector: {
      embedder,
      values: query.queryVector,
      precision: indexPrecisionOf(database.handle.kind, embedder),
    },
  };
}

/**
 * Runs the search's candidate query on an executor that also EXPLAIN ANALYZEs its statement, in the
 * same transaction and with the same settings, and returns the candidates and that plan.
 */
async function candidatesWithPlan(query: Partial<CandidateQuery> & { queryVector: number[] }) {
  const plans: string[] = [];
  const rows = await findCandidates(explainingExecutor(database.handle.db, plans), candidateQuery(query));
  expect(plans).toHaveLength(1);
  return { rows, plan: plans[0]! };
}

/**
 * Which of the two plans ran: each sits under a one-time filter (`$n` for the exact scan, `NOT $n`
 * for the index), and the scan under the one not chosen is never executed.
 */
function planThatRan(plan: string): 'exact' | 'index' {
  const lines = plan.split('\n');
  const ran = (filter: RegExp) => {
    const at = lines.findIndex((line) => filter.test(line));
    expect(at, plan).toBeGreaterThanOrEqual(0);
    // The filtered node's child: the next node line (PostgreSQL 17 prints Buffers: in between).
    const child = lines.slice(at + 1).find((line) => line.includes('->'))!;
    return !child.includes('never executed');
  };
  // PostgreSQL 15 names the InitPlan's value `$n`, 17 (PGlite) `(InitPlan n).col1`.
  const value = String.raw`(\$\d+|\(InitPlan \d+\)\.col1)`;
  const exact = ran(new RegExp(`One-Time Filter: ${value}$`));
  const index = ran(new RegExp(`One-Time Filter: \\(NOT ${value}\\)$`));
  expect(exact, plan).not.toBe(index);
  return exact ? 'exact' : 'index';
}

/** Whether the HNSW index was walked (a scan of it ran). */
const walked = (plan: string) => walkedHnsw(plan, database.handle, embedder);

describe('the semantic plan (D133)', () => {
  const queryVector = vectorOf(424_242);
  /** The small project's 10 nearest messages, by computing every similarity here. */
  const bruteForce = () =>
    [...smallVectors.entries()]
      .map(([id, vector]) => ({ id, similarity: cosine(vector, queryVector) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 10)
      .map((row) => row.id);

  it('answers a small project by an exact scan, equal to the brute-force ranking', async () => {
    const { rows, plan } = await candidatesWithPlan({ queryVector });
    expect(planThatRan(plan)).toBe('exact');
    expect(walked(plan)).toBe(false);
    const ranked = [...rows].sort((a, b) => b.cosine! - a.cosine!).map((row) => row.id);
    expect(ranked).toEqual(bruteForce());
  });

  it('walks the HNSW index when the scope passes the bound, and finds the same rows', async () => {
    const { rows, plan } = await candidatesWithPlan({ queryVector, exactScanMaxRows: 100 });
    expect(planThatRan(plan)).toBe('index');
    // One index holds both projects' rows, and the planner walks it. On Citus the small project's
    // shard may hold its 300 rows alone, and the planner there rightly sorts them itself.
    if (!(await testServerIsCitus())) expect(walked(plan)).toBe(true);
    expect(rows.map((row) => row.id).sort()).toEqual(bruteForce().sort());
  });

  it("has SEARCH_EXACT_SCAN_MAX_ROWS default to the search's own bound", () => {
    expect(configFrom({}).SEARCH_EXACT_SCAN_MAX_ROWS).toBe(EXACT_SCAN_MAX_ROWS);
  });

  it('counts only the scope: a namespace of a large project is small', async () => {
    await database.handle.db.execute(
      sql`UPDATE messages SET namespace = 'user-7' WHERE project_id = ${LARGE.projectId} AND id IN ('msg_1', 'msg_2', 'msg_3')`,
    );
    const { rows, plan } = await candidatesWithPlan({
      queryVector,
      scope: { projectId: LARGE.projectId, namespace: 'user-7' },
      exactScanMaxRows: 100,
    });
    expect(planThatRan(plan)).toBe('exact');
    expect(rows.map((row) => row.id).sort()).toEqual(['msg_1', 'msg_2', 'msg_3']);
    // The whole large project is past the bound.
    const whole = await candidatesWithPlan({
      queryVector,
      scope: { projectId: LARGE.projectId },
      exactScanMaxRows: 100,
    });
    expect(planThatRan(whole.plan)).toBe('index');
    expect(whole.rows).toHaveLength(10);
  });

  it('sends the index plan alone, without counting, when the word counts already pass the bound', async () => {
    const scope = { projectId: LARGE.projectId };
    const counted = await candidatesWithPlan({ queryVector, scope, exactScanMaxRows: 100 });
    const known = await candidatesWithPlan({ queryVector, scope, exactScanMaxRows: 100, wordedRows: 101 });
    expect(known.plan).not.toMatch(/One-Time Filter/);
    expect(known.plan).not.toMatch(/scope_size/);
    if (!(await testServerIsCitus())) expect(walked(known.plan)).toBe(true);
    expect(known.rows.map((row) => row.id).sort()).toEqual(counted.rows.map((row) => row.id).sort());
    // At the bound, or for one dialogue (the counts are the project's), the scope is still counted.
    const atBound = await candidatesWithPlan({ queryVector, scope, exactScanMaxRows: 100, wordedRows: 100 });
    expect(planThatRan(atBound.plan)).toBe('index');
    const dialogue = await candidatesWithPlan({
      queryVector,
      scope: { ...scope, dialogueId: 'dlg_1' },
      exactScanMaxRows: 100,
      wordedRows: 101,
    });
    expect(dialogue.plan).toMatch(/One-Time Filter/);
  });

  it("sends the query's vector and the hub's once, however many parts of the statement read them", async () => {
    const hub = vectorOf(515_151);
    const statements: SQL[] = [];
    const observing = observingExecutor(database.handle.db, async (_executor, statement) => {
      statements.push(statement);
    });
    // D187: both plans and the candidates' similarity read the query's vector, their hub similarity
    // the hub's; the full-text branch is there too, so the statement is a search's whole one.
    const query = candidateQuery({ queryVector, lexical: true, weights: { unmatch: 1 } });
    const rows = await findCandidates(observing, { ...query, vector: { ...query.vector!, hub } });
    expect(rows.map((row) => row.id).sort()).toEqual(bruteForce().sort());
    expect(statements).toHaveLength(1);
    const { params } = new PgDialect().sqlToQuery(statements[0]!);
    const sent = (vector: number[]) => params.filter((param) => param === `[${vector.join(',')}]`).length;
    expect(sent(queryVector)).toBe(1);
    expect(sent(hub)).toBe(1);
  });
});

describe("the vector index's search settings", () => {
  /**
   * The settings in force when the candidate statement runs: read in its transaction just before
   * it, by a statement on the project's rows, which on Citus runs on the worker that holds them,
   * as the candidate statement does (D182).
   */
  async function settingsAtTheStatement(k: number) {
    const seen: Record<string, string>[] = [];
    const reading = observingExecutor(database.handle.db, async (executor) => {
      const settings = await executor.execute(sql`SELECT current_setting('hnsw.iterative_scan') AS iterative,
        current_setting('hnsw.ef_search') AS "efSearch",
        current_setting('max_parallel_workers_per_gather') AS workers
        FROM messages WHERE project_id = ${LARGE.projectId} LIMIT 1`);
      seen.push(...rowsOf<Record<string, string>>(settings));
    });
    const distributed = await testServerIsCitus();
    await findCandidates(
      reading,
      candidateQuery({ queryVector: vectorOf(7), scope: { projectId: LARGE.projectId }, k, distributed }),
    );
    const after = rowsOf<{ iterative: string }>(
      await database.handle.db.execute(sql`SELECT current_setting('hnsw.iterative_scan', true) AS iterative`),
    );
    return { seen, after: after[0]?.iterative };
  }

  it('walks the index iteratively, with ef_search from k (at least 40, at most 1,000), without parallel workers, for this transaction only', async () => {
    for (const [k, efSearch] of [
      [10, '40'],
      [200, '200'],
      [5_000, '1000'],
    ] as const) {
      const { seen, after } = await settingsAtTheStatement(k);
      expect(seen).toEqual([{ iterative: 'relaxed_order', efSearch, workers: '0' }]);
      // Set LOCAL: the pooled connection goes back with the defaults (pgvector's: off).
      expect(after).not.toBe('relaxed_order');
    }
  });
});
