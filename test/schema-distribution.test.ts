import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISTRIBUTED_TABLES } from '../src/db/citus.js';
import { rowsOf } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { REFERENCE_TABLES, TENANT_TABLES } from '../src/db/tenant-tables.js';
import { type TestDatabase, createTestDatabase, testServerIsCitus } from './helpers/database.js';

// D49: the schema as migrated (not as declared) must let Citus distribute every tenant table by
// project_id: each primary key, unique constraint, unique index and foreign key of a table that
// holds a project's data includes project_id, and a foreign key to another tenant table pairs
// project_id with project_id. Reference tables (replicated to every node) are listed by name in
// src/db/tenant-tables.ts; a new table is either a tenant table or added to that list on purpose.
// On a Citus coordinator (npm run test:citus) the migrated tables must also be distributed so.

const REFERENCE = new Set(REFERENCE_TABLES);
const citus = await testServerIsCitus();

interface KeyRow {
  table: string;
  name: string;
  kind: string;
  columns: string[];
  referencedTable: string | null;
  referencedColumns: string[] | null;
}

let database: TestDatabase;
let tables: { table: string; hasProjectId: boolean }[];
let keys: KeyRow[];

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.handle.db;
  tables = rowsOf<{ table: string; hasProjectId: boolean }>(
    await db.execute(sql`
      SELECT c.relname AS "table",
             EXISTS (SELECT 1 FROM pg_attribute a
                     WHERE a.attrelid = c.oid AND a.attname = 'project_id' AND NOT a.attisdropped) AS "hasProjectId"
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
      ORDER BY 1`),
  );
  // Constraints (p, u, f) and unique indexes that back no constraint, with their column names in order.
  keys = rowsOf<KeyRow>(
    await db.execute(sql`
      SELECT t.relname AS "table", con.conname AS name, con.contype::text AS kind,
             ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, i)
                   JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.i) AS columns,
             rt.relname AS "referencedTable",
             CASE WHEN con.contype = 'f' THEN
               ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, i)
                     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.i)
             END AS "referencedColumns"
      FROM pg_constraint con
      JOIN pg_class t ON t.oid = con.conrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      LEFT JOIN pg_class rt ON rt.oid = con.confrelid
      WHERE n.nspname = 'public' AND con.contype IN ('p', 'u', 'f')
      UNION ALL
      SELECT t.relname, i.relname, 'unique index',
             ARRAY(SELECT a.attname::text FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, i)
                   JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.i),
             NULL, NULL
      FROM pg_index ix
      JOIN pg_class i ON i.oid = ix.indexrelid
      JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = 'public' AND ix.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid)
      ORDER BY 1, 2`),
  );
});

afterAll(async () => {
  await database.close();
});

const tenantTables = () => tables.filter((t) => !REFERENCE.has(t.table)).map((t) => t.table);

describe('one list of tables decides distribution', () => {
  it('every migrated table with project_id is in TENANT_TABLES, and every tenant table is a reference or a distributed table', () => {
    // A table that a migration creates but src/db/schema.ts does not declare would be left out
    // of erasure (D74) and of distribution: declare it there.
    const withProjectId = tables.filter((t) => t.hasProjectId).map((t) => t.table);
    expect(TENANT_TABLES.map((t) => t.name).sort()).toEqual(withProjectId.sort());
    const classified = [...REFERENCE_TABLES, ...DISTRIBUTED_TABLES].sort();
    expect(classified).toEqual(tables.map((t) => t.table).sort());
  });

  it('distributes each table after the tables it references', () => {
    for (const table of TENANT_TABLES) {
      for (const referenced of table.references.filter((name) => DISTRIBUTED_TABLES.includes(name))) {
        expect(DISTRIBUTED_TABLES.indexOf(referenced)).toBeLessThan(DISTRIBUTED_TABLES.indexOf(table.name));
      }
    }
    expect(DISTRIBUTED_TABLES.indexOf('dialogues')).toBeLessThan(DISTRIBUTED_TABLES.indexOf('messages'));
  });
});

describe('D49: the schema can be distributed by project_id', () => {
  it('every table is a tenant table with project_id or a listed reference table', () => {
    const unclassified = tables.filter((t) => !t.hasProjectId && !REFERENCE.has(t.table));
    expect(unclassified).toEqual([]);
    expect(tenantTables()).toEqual(
      expect.arrayContaining([
        'dialogues',
        'messages',
        'memories',
        'summaries',
        'embedding_jobs',
        'idempotency_keys',
        'usage_counters',
      ]),
    );
  });

  it('every tenant table has a primary key', () => {
    const withPrimaryKey = new Set(keys.filter((k) => k.kind === 'p').map((k) => k.table));
    expect(tenantTables().filter((table) => !withPrimaryKey.has(table))).toEqual([]);
  });

  it('every primary key, unique constraint, unique index and foreign key of a tenant table includes project_id', () => {
    const tenant = new Set(tenantTables());
    const offending = keys
      .filter((k) => tenant.has(k.table) && !k.columns.includes('project_id'))
      .map((k) => `${k.table}.${k.name} (${k.kind}: ${k.columns.join(', ')})`);
    expect(offending).toEqual([]);
  });

  it('a foreign key to another tenant table pairs project_id with project_id', () => {
    const tenant = new Set(tenantTables());
    const offending = keys
      .filter((k) => k.kind === 'f' && tenant.has(k.table) && tenant.has(k.referencedTable!))
      .filter((k) => k.referencedColumns![k.columns.indexOf('project_id')] !== 'project_id')
      .map((k) => `${k.table}.${k.name}`);
    expect(offending).toEqual([]);
    // The check saw the keys that matter: messages and summaries -> dialogues, and the thread link.
    const tenantForeignKeys = keys.filter((k) => k.kind === 'f' && tenant.has(k.referencedTable!));
    expect(tenantForeignKeys.map((k) => k.table)).toEqual(
      expect.arrayContaining(['messages', 'summaries', 'dialogues']),
    );
  });

  it('reference tables are referenced only through their own key', () => {
    // A distributed table may reference a reference table (projects) on any node.
    const toReference = keys.filter((k) => k.kind === 'f' && REFERENCE.has(k.referencedTable!));
    for (const key of toReference) expect(key.referencedColumns).toEqual(['id']);
  });
});

describe.runIf(citus)('on Citus, migration distributes the tables (D49)', () => {
  interface Placement {
    table: string;
    method: string;
    replication: string;
    column: string | null;
    colocation: number;
  }
  const placements = async () =>
    rowsOf<Placement>(
      await database.handle.db.execute(sql`
        SELECT logicalrelid::regclass::text AS "table", partmethod::text AS method,
               repmodel::text AS replication, column_to_column_name(logicalrelid, partkey) AS "column",
               colocationid AS colocation
        FROM pg_dist_partition ORDER BY 1`),
    );
  const foreignKeys = async () =>
    rowsOf<{ table: string; name: string; definition: string }>(
      await database.handle.db.execute(sql`
        SELECT c.relname AS "table", con.conname AS name, pg_get_constraintdef(con.oid) AS definition
        FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
        WHERE con.contype = 'f' AND con.connamespace = 'public'::regnamespace ORDER BY 1, 2`),
    );

  const expectDistributed = async () => {
    const byTable = new Map((await placements()).map((p) => [p.table, p]));
    for (const name of REFERENCE_TABLES) {
      expect(byTable.get(name), name).toMatchObject({ method: 'n', replication: 't' });
    }
    const colocation = byTable.get('dialogues')!.colocation;
    for (const name of DISTRIBUTED_TABLES) {
      expect(byTable.get(name), name).toMatchObject({ method: 'h', column: 'project_id', colocation });
    }
    const shards = rowsOf<{ shards: number }>(
      await database.handle.db.execute(
        sql`SELECT count(*)::int AS shards FROM pg_dist_shard WHERE logicalrelid = 'messages'::regclass`,
      ),
    );
    expect(shards[0]!.shards).toBe(4);
  };

  it('projects and api_keys are reference tables; every other tenant table is distributed by project_id, co-located', async () => {
    await expectDistributed();
  });

  it('keeps every foreign key: to projects, messages to dialogues, the thread link', async () => {
    const names = (await foreignKeys()).map((key) => `${key.table}.${key.name}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'api_keys.api_keys_project_id_projects_id_fk',
        'dialogues.dialogues_project_id_projects_id_fk',
        'dialogues.dialogues_thread_of_fk',
        'memories.memories_project_id_projects_id_fk',
        'messages.messages_dialogue_fk',
      ]),
    );
  });

  it('a second run changes nothing', async () => {
    const [before, keysBefore] = [await placements(), await foreignKeys()];
    await runMigrations(database.handle);
    expect(await placements()).toEqual(before);
    expect(await foreignKeys()).toEqual(keysBefore);
  });

  it('a table that a later migration creates is distributed by the next run, its foreign keys kept', async () => {
    // As a new migration would: a plain CREATE TABLE referencing projects (Citus makes it a local
    // table of its metadata at once, which can be neither distributed nor co-located as it is).
    await database.handle.db.execute(sql`DROP TABLE memories`);
    await database.handle.db.execute(sql`
      CREATE TABLE memories (
        project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
        id text NOT NULL,
        value text NOT NULL,
        CONSTRAINT memories_project_id_id_pk PRIMARY KEY (project_id, id))`);
    expect((await placements()).find((p) => p.table === 'memories')?.method).not.toBe('h');
    await runMigrations(database.handle);
    await expectDistributed();
    const memoryKeys = (await foreignKeys()).filter((key) => key.table === 'memories');
    expect(memoryKeys.map((key) => key.definition)).toEqual([
      'FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE',
    ]);
  });
});
