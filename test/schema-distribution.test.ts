import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/client.js';
import { type TestDatabase, createTestDatabase } from './helpers/database.js';

// D49: the schema as migrated (not as declared) must let Citus distribute every tenant table by
// project_id: each primary key, unique constraint, unique index and foreign key of a table that
// holds a project's data includes project_id, and a foreign key to another tenant table pairs
// project_id with project_id. Reference tables (replicated to every node) are listed by name;
// a new table is either a tenant table or added to that list on purpose.

const REFERENCE_TABLES = new Set(['projects', 'api_keys']);

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

const tenantTables = () => tables.filter((t) => !REFERENCE_TABLES.has(t.table)).map((t) => t.table);

describe('D49: the schema can be distributed by project_id', () => {
  it('every table is a tenant table with project_id or a listed reference table', () => {
    const unclassified = tables.filter((t) => !t.hasProjectId && !REFERENCE_TABLES.has(t.table));
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
    const toReference = keys.filter((k) => k.kind === 'f' && REFERENCE_TABLES.has(k.referencedTable!));
    for (const key of toReference) expect(key.referencedColumns).toEqual(['id']);
  });
});
