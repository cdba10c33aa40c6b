import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import type { Embedder } from '../../src/embedders/embedder.js';
import {
  type IndexPrecision,
  ensureVectorIndexes,
  vectorIndexName,
} from '../../src/modules/embeddings/vector-sql.js';
import { createServerDatabase, testServerUrl } from '../helpers/database.js';

// D41: every instance makes sure the configured model's HNSW indexes exist when it starts. Two
// instances starting together used to build the same index CONCURRENTLY at once, which
// Postgres ends with a deadlock error, and a build cut short left an invalid index behind.
// D172, D175: the index holds half-precision vectors on PostgreSQL and full ones on PGlite, and
// replaces the index of the other precision an older version built.

const embedder: Embedder = {
  id: 'test-model-3',
  dimensions: 3,
  embed: async () => [],
  close: async () => {},
};

const TABLES = ['dialogues', 'memories', 'messages'] as const;

const expected = (precision: IndexPrecision) =>
  TABLES.map((table) => ({ name: vectorIndexName(table, embedder, precision), valid: true }));

/** The test model's vector indexes of both precisions, with their validity. */
async function indexes(handle: DatabaseHandle) {
  const names = TABLES.flatMap((table) =>
    (['halfvec', 'vector'] as const).map((precision) => `'${vectorIndexName(table, embedder, precision)}'`),
  ).join(', ');
  const result = await handle.db.execute(
    sql.raw(`SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname IN (${names}) ORDER BY c.relname`),
  );
  return rowsOf<{ name: string; valid: boolean }>(result);
}

/** What an older version built: the model's index of `precision` on every table. */
async function buildOlderIndexes(handle: DatabaseHandle, precision: IndexPrecision) {
  for (const table of TABLES) {
    await handle.db.execute(
      sql.raw(`CREATE INDEX ${vectorIndexName(table, embedder, precision)} ON ${table}
        USING hnsw ((embedding::${precision}(3)) ${precision}_cosine_ops) WHERE embedding_model = '${embedder.id}'`),
    );
  }
}

/** The operator class of an index's column: what it stores. */
async function operatorClass(handle: DatabaseHandle, name: string) {
  const result = await handle.db.execute(
    sql.raw(`SELECT o.opcname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_opclass o ON o.oid = i.indclass[0] WHERE c.relname = '${name}'`),
  );
  return rowsOf<{ name: string }>(result)[0]?.name;
}

describe.runIf(testServerUrl())('vector indexes on Postgres (D41)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function instances(count: number): Promise<DatabaseHandle[]> {
    const database = await createServerDatabase(testServerUrl()!);
    cleanup.push(database.drop);
    const handles = await Promise.all(
      Array.from({ length: count }, () => openDatabase({ databaseUrl: database.url, dataDir: 'unused' })),
    );
    for (const handle of handles) cleanup.push(() => handle.close());
    await runMigrations(handles[0]!);
    return handles;
  }

  it('are built once and valid when several instances start at the same moment', async () => {
    const handles = await instances(4);
    // Enough vectors of the model that the builds overlap (on empty tables each one is instant).
    await handles[0]!.db.execute(sql`
      WITH p AS (INSERT INTO projects (id, name) VALUES ('prj_vector_indexes', 'vector indexes') RETURNING id),
      d AS (INSERT INTO dialogues (project_id, id) SELECT id, 'dlg_vector_indexes' FROM p RETURNING project_id, id)
      INSERT INTO messages (project_id, dialogue_id, id, role, content, content_length, embedding, embedding_model)
      SELECT d.project_id, d.id, 'm' || g, 'user', '"x"', 1,
             ARRAY[random(), random(), random()]::vector, ${embedder.id}
      FROM d, generate_series(1, 20000) AS g`);
    await Promise.all(handles.map((handle) => ensureVectorIndexes(handle, embedder)));
    expect(await indexes(handles[0]!)).toEqual(expected('halfvec'));
  });

  it('replace an index that a cut-short build left invalid', async () => {
    const [handle] = await instances(1);
    await ensureVectorIndexes(handle!, embedder);
    const name = vectorIndexName('messages', embedder, 'halfvec');
    await handle!.db.execute(
      sql.raw(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = '${name}'::regclass`),
    );
    expect((await indexes(handle!)).find((index) => index.name === name)?.valid).toBe(false);
    await ensureVectorIndexes(handle!, embedder);
    expect((await indexes(handle!)).find((index) => index.name === name)?.valid).toBe(true);
  });

  it('hold half-precision vectors, and replace the full-precision index of an older version (D172)', async () => {
    const [handle] = await instances(1);
    await buildOlderIndexes(handle!, 'vector');
    await ensureVectorIndexes(handle!, embedder);
    expect(await indexes(handle!)).toEqual(expected('halfvec'));
    expect(await operatorClass(handle!, vectorIndexName('messages', embedder, 'halfvec'))).toBe(
      'halfvec_cosine_ops',
    );
  });
});

describe('vector indexes on PGlite (D175)', () => {
  it('hold full-precision vectors, and replace the half-precision index of an older version', async () => {
    const handle = await openDatabase({ dataDir: 'memory://' });
    try {
      await runMigrations(handle);
      await buildOlderIndexes(handle, 'halfvec');
      await ensureVectorIndexes(handle, embedder);
      expect(await indexes(handle)).toEqual(expected('vector'));
      expect(await operatorClass(handle, vectorIndexName('messages', embedder, 'vector'))).toBe(
        'vector_cosine_ops',
      );
    } finally {
      await handle.close();
    }
  });
});
