import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { type TestContext, createTestContext } from '../helpers/app.js';
import { testServerIsCitus } from '../helpers/database.js';

// D176: every search reads the whole pending list of a GIN index (the rows written since its
// last clean-up), and while it is large the planner prices the index above reading every row of
// the project. The full-text indexes keep it at 256 kB instead of the default 4 MB.

const INDEXES = {
  dialogues: 'dialogues_search_idx',
  memories: 'memories_search_idx',
  messages: 'messages_search_idx',
};

const citus = await testServerIsCitus();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('the full-text indexes (D176)', () => {
  it('keep a pending list of at most 256 kB', async () => {
    const result = await ctx.app.db.execute(sql`
      SELECT relname AS name, array_to_string(reloptions, ',') AS options FROM pg_class
      WHERE relname IN ${Object.values(INDEXES)} ORDER BY relname`);
    expect(rowsOf(result)).toEqual(
      Object.values(INDEXES).map((name) => ({ name, options: 'gin_pending_list_limit=256' })),
    );
  });

  it.runIf(citus)('keep it on every shard of a Citus cluster too', async () => {
    for (const [table, index] of Object.entries(INDEXES)) {
      const result = await ctx.app.db.execute(
        sql.raw(`SELECT success, result FROM run_command_on_placements('${table}'::regclass,
          $$SELECT string_agg(array_to_string(c.reloptions, ','), ';') FROM pg_index i
            JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = '%s'::regclass AND c.relname LIKE '${index}%%'$$)`),
      );
      const placements = rowsOf<{ success: boolean; result: string }>(result);
      expect(placements.length).toBeGreaterThan(0);
      for (const placement of placements)
        expect(placement).toEqual({ success: true, result: 'gin_pending_list_limit=256' });
    }
  });
});
