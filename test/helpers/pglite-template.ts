import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { openDatabase } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { PGLITE_TEMPLATE_ENV } from './database.js';

// Vitest's global setup for the suites on the embedded store: one migrated PGlite database, dumped
// once per run to a file whose path the test processes find in PGLITE_TEMPLATE_ENV. Each test
// database then starts as a copy of it (createTestDatabase) instead of running PGlite's initdb and
// every migration again: about 2 s of CPU per database, hundreds of times per run. The copy is made
// by the same migrations of the same tree, so it is the database a fresh one would be; each test
// database still runs the migrations, which find nothing to do.
export default async function buildPgliteTemplate(): Promise<(() => void) | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'parley-pglite-template-'));
  const dataDir = join(dir, 'data');
  const handle = await openDatabase({ dataDir });
  try {
    await runMigrations(handle);
  } finally {
    await handle.close();
  }
  const client = await PGlite.create(dataDir, { extensions: { vector } });
  try {
    const tarball = await client.dumpDataDir('none');
    const file = join(dir, 'migrated.tar');
    writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
    process.env[PGLITE_TEMPLATE_ENV] = file;
  } finally {
    await client.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
