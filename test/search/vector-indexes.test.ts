import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import type { Embedder } from '../../src/embedders/embedder.js';
import {
  ensureVectorIndexes,
  replacedVectorIndexName,
  vectorIndexName,
} from '../../src/modules/embeddings/vector-sql.js';
import { createServerDatabase, testServerUrl } from '../helpers/database.js';

// D41: every instance makes sure the configured model's HNSW indexes exist when it starts. Two
// instances starting together used to build the same index CONCURRENTLY at once, which
// Postgres ends with a deadlock error, and a build cut short left an invalid index behind.

const embedder: Embedder = {
  id: 'test-model-3',
  dimensions: 3,
  embed: async () => [],
  close: async () => {},
};

const expected = (['dialogues', 'memories', 'messages'] as const).map((table) => ({
  name: vectorIndexName(table, embedder),
  valid: true,
}));

const replaced = (['dialogues', 'memories', 'messages'] as const).map((table) =>
  replacedVectorIndexName(table, embedder),
);

/** The test model's vector indexes (D172's and the full-precision ones it replaced), with their validity. */
async function indexes(handle: DatabaseHandle) {
  const names = [...expected.map(({ name }) => name), ...replaced].map((name) => `'${name}'`).join(', ');
  const result = await handle.db.execute(
    sql.raw(`SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname IN (${names}) ORDER BY c.relname`),
  );
  return rowsOf<{ name: string; valid: boolean }>(result);
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
    expect(await indexes(handles[0]!)).toEqual(expected);
  });

  it('replace an index that a cut-short build left invalid', async () => {
    const [handle] = await instances(1);
    await ensureVectorIndexes(handle!, embedder);
    const name = vectorIndexName('messages', embedder);
    await handle!.db.execute(
      sql.raw(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = '${name}'::regclass`),
    );
    expect((await indexes(handle!)).find((index) => index.name === name)?.valid).toBe(false);
    await ensureVectorIndexes(handle!, embedder);
    expect((await indexes(handle!)).find((index) => index.name === name)?.valid).toBe(true);
  });

  it('hold half-precision vectors, and replace the full-precision index of an older version (D172)', async () => {
    const [handle] = await instances(1);
    // What versions before D172 built, for every table.
    for (const [i, table] of (['dialogues', 'memories', 'messages'] as const).entries()) {
      await handle!.db.execute(
        sql.raw(`CREATE INDEX ${replaced[i]} ON ${table} USING hnsw ((embedding::vector(3)) vector_cosine_ops)
          WHERE embedding_model = '${embedder.id}'`),
      );
    }
    await ensureVectorIndexes(handle!, embedder);
    expect(await indexes(handle!)).toEqual(expected);
    expect(await operatorClass(handle!, vectorIndexName('messages', embedder))).toBe('halfvec_cosine_ops');
  });
});
