import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CandidateQuery,
  type TermStats,
  findCandidates,
  readTermStats,
} from '../../src/modules/search/repository.js';
import { leadingLexemes, lexemeWeights } from '../../src/modules/search/scoring.js';
import { countTermsFrom, termBucket } from '../../src/modules/search/terms-sql.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';
import { explainingExecutor } from '../helpers/explain.js';

// D171: the full-text candidates are looked for first among the rows holding the query's rarest
// words; the rows holding only its common words are read only when too few of the first outscore
// them. The candidates must be the same as when every matching row is ranked, whichever part
// answers.

const stats = (frequencies: Record<string, number>, documents = 1_000): TermStats => ({
  table: 'messages',
  lexemes: Object.keys(frequencies),
  documents,
  length: documents * 10,
  frequencies,
});

describe('leadingLexemes (D171)', () => {
  it('takes the rarest words until the others weigh less than the last one taken', () => {
    const leading = leadingLexemes(stats({ common: 900, usual: 400, rare: 3 }));
    expect(leading?.lexemes).toEqual(['rare']);
    const weights = lexemeWeights(stats({ common: 900, usual: 400, rare: 3 }));
    expect(leading?.restWeight).toBeCloseTo(weights.common! + weights.usual!, 12);
    expect(leading!.restWeight).toBeLessThan(weights.rare!);
  });

  it('takes more than one word when the rarest alone weighs less than the rest', () => {
    // Three rare words of about the same weight, one common one.
    const leading = leadingLexemes(stats({ alpha: 5, beta: 6, gamma: 7, common: 950 }));
    expect(leading?.lexemes).toEqual(['alpha', 'beta']);
  });

  it('leaves out words no row holds, which cannot lift a row', () => {
    const leading = leadingLexemes(stats({ absent: 0, rare: 3, common: 900 }));
    expect(leading?.lexemes).toEqual(['rare']);
  });

  it('is undefined when every word is needed, or there is one word', () => {
    expect(leadingLexemes(stats({ alpha: 5, beta: 5 }))).toBeUndefined();
    expect(leadingLexemes(stats({ only: 5 }))).toBeUndefined();
    expect(leadingLexemes(stats({}))).toBeUndefined();
  });
});

let database: TestDatabase;
const projectId = 'prj_leading';

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${projectId}, 'leading')`);
  await db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES (${projectId}, 'dlg_1')`);
  // 5 rows with the rare word, 7 with the middling word and the common one, 200 with the common
  // word alone. Each rare and middling row holds its word a different number of times, so that
  // cover density orders them without ties. The rare rows are tagged 'rare'.
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

const noFilters = { tags: { all: [], any: [], none: [] }, metadata: [] };

/** The lexical candidates in their order, each way, and the plan of the way with leading words. */
async function bothWays(k: number, filters: CandidateQuery['filters'] = noFilters) {
  const text = 'quokka zephyr coffee';
  const termStats = await readTermStats(database.handle.db, { table: 'messages', projectId, text });
  const leading = leadingLexemes(termStats);
  expect(leading?.lexemes).toEqual(['quokka']);
  const query: CandidateQuery = {
    table: 'messages',
    scope: { projectId },
    filters,
    text,
    lexical: true,
    weights: lexemeWeights(termStats),
    k,
  };
  const ids = (rows: { id: string; rank: number }[]) => rows.map((row) => row.id).sort();
  const everyRow = await findCandidates(database.handle.db, query);
  const plans: string[] = [];
  const withLeading = await findCandidates(explainingExecutor(database.handle.db, plans), {
    ...query,
    leading,
  });
  expect(plans).toHaveLength(1);
  return { everyRow: ids(everyRow), withLeading: ids(withLeading), plan: plans[0]! };
}

/** Whether the part reading the rows without a leading word ran (it sits under a one-time filter). */
function readTheRest(plan: string): boolean {
  const lines = plan.split('\n');
  const at = lines.findIndex((line) => /One-Time Filter: .* < /.test(line));
  expect(at, plan).toBeGreaterThanOrEqual(0);
  const child = lines.slice(at + 1).find((line) => line.includes('->'))!;
  return !child.includes('never executed');
}

describe('full-text candidates with leading words (D171)', () => {
  it('answers from the rare rows alone when enough of them outscore the rest', async () => {
    const { everyRow, withLeading, plan } = await bothWays(4);
    expect(withLeading).toEqual(everyRow);
    expect(withLeading).toEqual(['msg_001', 'msg_002', 'msg_003', 'msg_004']);
    expect(readTheRest(plan)).toBe(false);
  });

  it('reads the other rows when too few rare rows exist, and gives the same answer', async () => {
    const { everyRow, withLeading, plan } = await bothWays(12);
    expect(withLeading).toEqual(everyRow);
    expect(withLeading).toHaveLength(12);
    // The 5 rare rows, then the 7 holding the middling word.
    expect(withLeading).toEqual(Array.from({ length: 12 }, (_, i) => `msg_${String(i).padStart(3, '0')}`));
    expect(readTheRest(plan)).toBe(true);
  });

  it('reads the other rows when the filters leave no rare row', async () => {
    const filters = { ...noFilters, tags: { all: [], any: [], none: ['rare'] } };
    const { everyRow, withLeading, plan } = await bothWays(4, filters);
    expect(withLeading).toEqual(everyRow);
    expect(withLeading).toHaveLength(4);
    expect(withLeading).toEqual(['msg_008', 'msg_009', 'msg_010', 'msg_011']);
    expect(readTheRest(plan)).toBe(true);
  });
});
