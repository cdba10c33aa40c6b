import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, rowsOf } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { migrationsFolder } from '../../src/db/migration-files.js';
import { createServerDatabase, testServerUrl } from '../helpers/database.js';

// Migration 0006 turns the identity columns into sequence defaults (Citus distributes no table
// with an identity column, docs/scaling.md). On a database that already holds rows, the sequences
// must continue after them: a message added after the upgrade sorts after every older one of the
// same millisecond (D29), and a new job id never meets an old one.

const BEFORE_CITUS = 6; // migrations 0000-0005

/** A copy of migrations/ whose journal stops after the first `count` migrations. */
function migrationsUpTo(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-migrations-'));
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: unknown[] };
  journal.entries = journal.entries.slice(0, count);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

let handle: Awaited<ReturnType<typeof openDatabase>>;
let drop: () => Promise<void> = async () => {};
let oldFolder: string;

beforeAll(async () => {
  const serverUrl = testServerUrl();
  if (serverUrl) {
    const server = await createServerDatabase(serverUrl);
    drop = server.drop;
    handle = await openDatabase({ databaseUrl: server.url, dataDir: 'unused' });
  } else {
    handle = await openDatabase({ dataDir: 'memory://' });
  }
  oldFolder = migrationsUpTo(BEFORE_CITUS);
  const db = handle.db;
  if (handle.kind === 'pglite')
    await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: oldFolder });
  else await migratePg(db as unknown as NodePgDatabase, { migrationsFolder: oldFolder });
});

afterAll(async () => {
  await handle?.close();
  await drop();
  rmSync(oldFolder, { recursive: true, force: true });
});

const seqs = async (db: Database) =>
  rowsOf<{ id: string; seq: number }>(await db.execute(sql`SELECT id, seq FROM messages ORDER BY seq`)).map(
    (row) => [row.id, Number(row.seq)],
  );

describe('upgrading to sequence defaults (migration 0006)', () => {
  it('continues messages.seq and embedding_jobs.id after the rows already there', async () => {
    const db = handle.db;
    await db.execute(sql`INSERT INTO projects (id, name) VALUES ('prj_up', 'upgrade')`);
    await db.execute(sql`INSERT INTO dialogues (project_id, id) VALUES ('prj_up', 'dlg_up')`);
    const at = '2026-01-01T00:00:00.000Z';
    await db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, created)
      SELECT 'prj_up', 'dlg_up', 'old_' || i, 'user', '"x"', 1, ${at}::timestamptz FROM generate_series(1, 3) AS i`);
    await db.execute(sql`
      INSERT INTO embedding_jobs (project_id, object_type, dialogue_id, object_id)
      SELECT 'prj_up', 'message', 'dlg_up', 'old_' || i FROM generate_series(1, 3) AS i`);

    await runMigrations(handle);

    await db.execute(sql`
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, created)
      VALUES ('prj_up', 'dlg_up', 'new', 'user', '"x"', 1, ${at}::timestamptz)`);
    await db.execute(sql`
      INSERT INTO embedding_jobs (project_id, object_type, dialogue_id, object_id)
      VALUES ('prj_up', 'message', 'dlg_up', 'new')`);
    expect(await seqs(db)).toEqual([
      ['old_1', 1],
      ['old_2', 2],
      ['old_3', 3],
      ['new', 4],
    ]);
    const jobIds = rowsOf<{ id: number }>(await db.execute(sql`SELECT id FROM embedding_jobs ORDER BY id`));
    expect(jobIds.map((row) => Number(row.id))).toEqual([1, 2, 3, 4]);
  });
});
