import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { migrationsFolder } from '../../src/db/migration-files.js';

// D57: migration 0006 turns the memories stored before (a plain string value) into the new shape:
// the value as its JSON text, their label and value as searchable text, found by full-text search.

describe('migration 0006 (memory values, D57)', () => {
  it('keeps the memories stored before it, readable and searchable', async () => {
    // The migrations before 0006, in a folder of their own.
    const before = mkdtempSync(join(tmpdir(), 'parley-migrations-'));
    cpSync(migrationsFolder, before, { recursive: true });
    const journalFile = join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
    journal.entries = journal.entries.filter((entry) => entry.tag < '0006');
    writeFileSync(journalFile, JSON.stringify(journal));

    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      await migrate(handle.db as unknown as PgliteDatabase, { migrationsFolder: before });
      await handle.db.execute(sql`INSERT INTO projects (id, name) VALUES ('prj_m', 'm')`);
      await handle.db.execute(sql`INSERT INTO memories (project_id, id, label, value)
        VALUES ('prj_m', 'mem_a', 'drink', 'tea "strong", no sugar'), ('prj_m', 'mem_b', NULL, 'plain')`);

      await runMigrations(handle);
      const rows = rowsOf<{ id: string; value: string; search_text: string; description: string | null }>(
        await handle.db.execute(
          sql`SELECT id, value, search_text, description FROM memories WHERE project_id = 'prj_m' ORDER BY id`,
        ),
      );
      expect(rows).toEqual([
        {
          id: 'mem_a',
          value: '"tea \\"strong\\", no sugar"',
          search_text: 'drink\ntea "strong", no sugar',
          description: null,
        },
        { id: 'mem_b', value: '"plain"', search_text: 'plain', description: null },
      ]);
      const found = rowsOf<{ id: string }>(
        await handle.db.execute(
          sql`SELECT id FROM memories WHERE search_vector @@ plainto_tsquery('english', 'sugar drink')`,
        ),
      );
      expect(found).toEqual([{ id: 'mem_a' }]);
      // The full-text index went with the old column and is made again on the new one.
      const index = rowsOf<{ indexdef: string }>(
        await handle.db.execute(sql`SELECT indexdef FROM pg_indexes WHERE indexname = 'memories_search_idx'`),
      );
      expect(index[0]?.indexdef).toContain('gin (search_vector)');
    } finally {
      await handle.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
