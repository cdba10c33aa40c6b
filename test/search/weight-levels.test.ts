import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import {
  type CandidateQuery,
  type TermStats,
  findCandidates,
  readTermStats,
} from '../../src/modules/search/repository.js';
import { heldWeightLevels, lexemeWeights } from '../../src/modules/search/scoring.js';
import { countTermsFrom, termBucket } from '../../src/modules/search/terms-sql.js';
import { MAX_LEVEL_OPERANDS, weightLevels } from '../../src/modules/search/weight-levels.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { explainingExecutor } from '../helpers/explain.js';

// D188: through the GIN index, the full-text candidates are read by levels of held weight, highest
// first, each level only while too few rows were found above it. The candidates must be the same as
// when every matching row is weighed, whichever level answers; past a bound, a level's rows are
// not all read.

let database: TestDatabase;
const projectId = 'prj_levels';

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${projectId}, 'levels')`);
  await db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES (${projectId}, 'dlg_1')`);
  // 5 rows with the rare word, 7 with the middling word and the common one, 200 with the common
  // word alone (and 'noon'). Each rare and middling row holds its word a different number of
  // times, so that cover density orders them without ties. The rare rows are tagged 'rare'.
  const texts = [
    ...Array.from({ length: 5 }, (_, i) => ({ text: `${'quokka '.repeat(i + 1)}seen today`, tag: 'rare' })),
    ...Array.from({ length: 7 }, (_, i) => ({
      text: `${'zephyr '.repeat(i + 1)}over the coffee cup`,
      tag: 'middle',
    })),
    ...Array.from({ length: 200 }, (_, i) => ({ text: `coffee at noon number ${i}`, tag: 'common' })),
  ];
  await db.execute(sql`
    INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text, tags)
    VALUES ${sql.join(
      texts.map(
        ({ text, tag }, i) =>
          sql`(${projectId}, 'dlg_1', ${`msg_${String(i).padStart(3, '0')}`}, 'user', ${JSON.stringify(text)},
            ${text.length}, ${text}, ARRAY[${tag}]::text[])`,
      ),
      sql`, `,
    )}`);
  await db.execute(
    countTermsFrom(
      sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM messages WHERE project_id = ${projectId}`,
      { projectId, objectType: 'message', sign: 1 },
    ),
  );
});
afterAll(async () => {
  await database?.close();
});

/** Every subset of `lexemes`: which of them a row holds. */
function subsets<T>(items: T[]): T[][] {
  const all: T[][] = [[]];
  for (const item of items) for (const subset of all.slice()) all.push([...subset, item]);
  return all;
}

describe('weightLevels (D188)', () => {
  const lexemes = [
    { lexeme: 'rare', weight: 6.1 },
    { lexeme: "o'brien", weight: 4.7 },
    { lexeme: 'back\\slash', weight: 3.9 },
    { lexeme: 'a&b:c', weight: 2.2 },
    { lexeme: 'common', weight: 0.4 },
  ];

  it('matches, at each level, exactly the rows whose held weight reaches its threshold', async () => {
    const levels = weightLevels(lexemes);
    expect(levels.length).toBeGreaterThan(2);
    const held = subsets(lexemes);
    for (const { threshold, tsquery } of levels) {
      const [row] = rowsOf<{ matches: boolean[] }>(
        await database.handle.db.execute(sql`
          SELECT array_agg(array_to_tsvector(s.lexemes) @@ ${tsquery}::tsquery ORDER BY s.n) AS matches
          FROM jsonb_array_elements(${JSON.stringify(held.map((subset) => subset.map((l) => l.lexeme)))}::jsonb)
            WITH ORDINALITY AS e(lexemes, n),
            LATERAL (SELECT ARRAY(SELECT jsonb_array_elements_text(e.lexemes)) AS lexemes, e.n) AS s`),
      );
      const expected = held.map((subset) => subset.reduce((sum, l) => sum + l.weight, 0) >= threshold - 1e-9);
      expect(row?.matches, tsquery).toEqual(expected);
    }
  });

  it('starts at a row holding every word and descends through weights a row can hold', () => {
    const thresholds = weightLevels(lexemes).map((level) => level.threshold);
    expect(thresholds[0]).toBeCloseTo(17.3, 9);
    expect([...thresholds].sort((a, b) => b - a)).toEqual(thresholds);
    const sums = subsets(lexemes).map((subset) => subset.reduce((sum, l) => sum + l.weight, 0));
    for (const threshold of thresholds)
      expect(sums.some((sum) => Math.abs(sum - threshold) < 1e-9)).toBe(true);
  });

  it('leaves out words that weigh nothing, and has no levels for one word or very many', () => {
    expect(weightLevels([{ lexeme: 'only', weight: 3 }])).toEqual([]);
    expect(
      weightLevels([
        { lexeme: 'only', weight: 3 },
        { lexeme: 'absent', weight: 0 },
      ]),
    ).toEqual([]);
    const many = Array.from({ length: 13 }, (_, i) => ({ lexeme: `w${i}`, weight: 1 + i / 10 }));
    expect(weightLevels(many)).toEqual([]);
  });

  it('names at most MAX_LEVEL_OPERANDS lexemes in a level', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({ lexeme: `w${i}`, weight: 3 + (i % 4) / 3 }));
    const levels = weightLevels(twelve);
    expect(levels.length).toBeGreaterThan(0);
    for (const { tsquery } of levels)
      expect(tsquery.match(/'w\d+'/g)!.length).toBeLessThanOrEqual(MAX_LEVEL_OPERANDS);
  });
});

const noFilters = { tags: { all: [], any: [], none: [] }, metadata: [] };

/**
 * The lexical candidates of `text`, weighed all at once and read by levels, and the plan of the
 * second. A scope bound of 10 rows makes the project large, so that the GIN index finds its rows.
 */
async function bothWays(text: string, k: number, options: Partial<CandidateQuery> = {}) {
  const termStats: TermStats = await readTermStats(database.handle.db, {
    table: 'messages',
    projectId,
    text,
  });
  const query: CandidateQuery = {
    table: 'messages',
    scope: { projectId },
    filters: noFilters,
    text,
    lexical: true,
    weights: lexemeWeights(termStats),
    k,
    exactScanMaxRows: 10,
    wordedRows: termStats.documents,
    levelMaxRead: 1_000,
    ...options,
  };
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id).sort();
  const everyRow = await findCandidates(database.handle.db, query);
  const plans: string[] = [];
  const levels = heldWeightLevels(termStats);
  const byLevels = await findCandidates(explainingExecutor(database.handle.db, plans), { ...query, levels });
  expect(plans).toHaveLength(1);
  return { everyRow: ids(everyRow), byLevels: ids(byLevels), plan: plans[0]!, levels };
}

/** The plan's lines from the given level's CTE on (1 is the highest; past the levels, the rest). */
function levelLines(plan: string, level: number): string[] {
  const lines = plan.split('\n');
  const start = lines.findIndex((line) => line.includes(`CTE level_${level}`));
  expect(start, plan).toBeGreaterThanOrEqual(0);
  return lines.slice(start);
}

/** Whether the part reading the given level ran: its scan of the messages (on Citus, of a shard of them) did. */
const readLevel = (plan: string, level: number): boolean =>
  !levelLines(plan, level)
    .find((line) => / on messages(_\d+)? t_[\d_]+ /.test(line))!
    .includes('never executed');

/** The rows the given level weighed: those handed to its sort by held weight. */
function rowsWeighed(plan: string, level: number): number {
  const lines = levelLines(plan, level);
  const sort = lines.findIndex((line) => line.includes('->  Sort'));
  const input = lines.slice(sort + 1).find((line) => line.includes('->'))!;
  return Number(/rows=(\d+)/.exec(input)![1]);
}

describe('full-text candidates by levels of held weight (D188)', () => {
  const text = 'quokka zephyr coffee';

  it('answers from the level of the rare and middling words when it holds enough rows', async () => {
    const { everyRow, byLevels, plan, levels } = await bothWays(text, 4);
    // Every word; the rare and the middling one; either of them.
    expect(levels).toHaveLength(3);
    expect(byLevels).toEqual(everyRow);
    expect(byLevels).toEqual(['msg_001', 'msg_002', 'msg_003', 'msg_004']);
    expect(readLevel(plan, 3)).toBe(true);
    // The rows holding only the common word are never read.
    expect(readLevel(plan, 4)).toBe(false);
  });

  it('reads the rows holding only the common word when the levels hold too few, and gives the same answer', async () => {
    const { everyRow, byLevels, plan } = await bothWays(text, 20);
    expect(byLevels).toEqual(everyRow);
    expect(byLevels).toHaveLength(20);
    expect(byLevels.slice(0, 12)).toEqual(
      Array.from({ length: 12 }, (_, i) => `msg_${String(i).padStart(3, '0')}`),
    );
    expect(readLevel(plan, 4)).toBe(true);
  });

  it('reads further down when the filters leave too few rows in a level', async () => {
    const filters = { ...noFilters, tags: { all: [], any: [], none: ['rare', 'middle'] } };
    const { everyRow, byLevels, plan } = await bothWays(text, 4, { filters });
    expect(byLevels).toEqual(everyRow);
    expect(byLevels).toHaveLength(4);
    expect(readLevel(plan, 4)).toBe(true);
  });

  it('reads at most the bound of one level, and answers from its heaviest rows', async () => {
    // 200 rows hold both words: one level, all of the same weight.
    const { byLevels, plan } = await bothWays('coffee noon', 4, { levelMaxRead: 10 });
    expect(byLevels).toHaveLength(4);
    expect(rowsWeighed(plan, 1)).toBe(10);
    const unbounded = await bothWays('coffee noon', 4);
    expect(rowsWeighed(unbounded.plan, 1)).toBe(200);
  });

  it('counts against the bound the rows it reads, whether or not they pass the filters', async () => {
    // No row has metadata: the level reads its 10 rows and keeps none. (A metadata condition has no
    // index to count the filtered rows by, D186, so the scope stays large.)
    const filters = { ...noFilters, metadata: [{ field: 'priority', op: '$eq' as const, value: 1 }] };
    const { plan } = await bothWays('coffee noon', 4, { filters, levelMaxRead: 10 });
    const level = levelLines(plan, 1);
    const own = level.slice(
      0,
      level.findIndex((line) => line.includes('CTE level_2')),
    );
    expect(rowsWeighed(plan, 1)).toBe(0);
    expect(
      own.some((line) => /-> {2}Limit \(actual time=\S+ rows=10(\.00)? /.test(line)),
      plan,
    ).toBe(true);
  });

  it('reads a small scope once, by its own rows', async () => {
    const { everyRow, byLevels, plan } = await bothWays(text, 4, { exactScanMaxRows: 10_000 });
    expect(byLevels).toEqual(everyRow);
    expect(plan).not.toMatch(/level_1/);
  });
});
