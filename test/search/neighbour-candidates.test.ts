import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CandidateQuery, findCandidates, readTermStats } from '../../src/modules/search/repository.js';
import { heldWeightLevels, lexemeWeights } from '../../src/modules/search/scoring.js';
import { countTermsFrom, termBucket } from '../../src/modules/search/terms-sql.js';
import { type TestDatabase, createTestDatabase } from '../helpers/database.js';

// D181: each message candidate carries the id of the message before it in its dialogue (by
// created, then insertion order), which tells the scoring which candidates stand side by side.

let database: TestDatabase;
const PROJECT = 'prj_neighbours';

beforeAll(async () => {
  database = await createTestDatabase();
  const { db } = database.handle;
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${PROJECT}, ${PROJECT})`);
  await db.execute(
    sql`INSERT INTO dialogues (project_id, id) VALUES (${PROJECT}, 'dlg_a'), (${PROJECT}, 'dlg_b')`,
  );
  // Inserted out of order: a_2 and a_3 share their instant, a_3 inserted first.
  const rows: [string, string, string, string][] = [
    ['dlg_a', 'a_1', 'the pelican arrived', '2026-01-01T10:00:00Z'],
    ['dlg_a', 'a_4', 'the pelican left again', '2026-01-01T10:03:00Z'],
    ['dlg_a', 'a_3', 'a pelican ate a fish', '2026-01-01T10:02:00Z'],
    ['dlg_a', 'a_2', 'the pelican was hungry', '2026-01-01T10:02:00Z'],
    ['dlg_b', 'b_1', 'no birds here', '2026-01-01T09:00:00Z'],
    ['dlg_b', 'b_2', 'a pelican, maybe', '2026-01-01T11:00:00Z'],
  ];
  for (const [dialogueId, id, text, created] of rows) {
    await db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, search_text, created)
      VALUES (${PROJECT}, ${dialogueId}, ${id}, 'user', ${JSON.stringify(text)}, ${text.length}, ${text}, ${created}::timestamptz)`);
  }
  await db.execute(
    countTermsFrom(
      sql`SELECT namespace, ${termBucket(sql`dialogue_id`)}, search_vector FROM messages WHERE project_id = ${PROJECT}`,
      { projectId: PROJECT, objectType: 'message', sign: 1 },
    ),
  );
});
afterAll(async () => {
  await database?.close();
});

describe('message candidates and their previous message (D181)', () => {
  it('names the message before each candidate in its own dialogue, none before the first', async () => {
    const text = 'pelican';
    const stats = await readTermStats(database.handle.db, { table: 'messages', projectId: PROJECT, text });
    const query: CandidateQuery = {
      table: 'messages',
      scope: { projectId: PROJECT },
      filters: { tags: { all: [], any: [], none: [] }, metadata: [] },
      text,
      lexical: true,
      weights: lexemeWeights(stats),
      levels: heldWeightLevels(stats),
      k: 10,
      wordedRows: stats.documents,
    };
    const rows = await findCandidates(database.handle.db, query);
    const previous = Object.fromEntries(rows.map((row) => [row.id, row.previousId]));
    // a_3 was inserted before a_2 at the same instant, so it comes first (D29).
    expect(previous).toEqual({ a_1: null, a_3: 'a_1', a_2: 'a_3', a_4: 'a_2', b_2: 'b_1' });
  });
});
