import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.js';
import type { TestDatabase } from './database.js';

// Every byte of data a database holds, as text, to look for content that should be gone (D73).
// On PostgreSQL it is what `pg_dump --data-only` writes (what an operator's backup would hold);
// PGlite has no dump tool in-process, so every row of every table is read as text instead.

async function tableText(handle: DatabaseHandle): Promise<string> {
  const tables = rowsOf<{ name: string }>(
    await handle.db.execute(
      sql`SELECT quote_ident(table_name) AS name FROM information_schema.tables
          WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
    ),
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = rowsOf<{ row: string }>(
      await handle.db.execute(sql.raw(`SELECT t::text AS row FROM ${name} t`)),
    );
    parts.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

export async function dataDump(database: TestDatabase): Promise<string> {
  if (!database.url) return tableText(database.handle);
  return execFileSync('pg_dump', ['--data-only', '--no-owner', database.url], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}
