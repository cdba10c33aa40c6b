import { is } from 'drizzle-orm';
import { PgTable, getTableConfig } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';

// The tables that hold a project's rows, read from the Drizzle schema itself, so that code that
// must reach every one of them (erasing a project, D74) cannot forget a table added later.
// test/foundation/project-erasure.test.ts checks this list against the migrated database.

export interface TenantTable {
  /** The table's SQL name. */
  name: string;
  /** The primary key's column names: every one includes project_id but api_keys' (D49). */
  primaryKey: string[];
  /** Other tenant tables that this table's foreign keys reference. */
  references: string[];
  /**
   * True when its rows go with their project row: a foreign key to `projects` with ON DELETE
   * CASCADE, directly or through a tenant table that has one (messages through dialogues).
   */
  cascadesFromProject: boolean;
  /**
   * Foreign keys from the table to itself (a thread to its parent dialogue), as the referencing
   * columns and the columns they reference: a row that another row references cannot go first.
   */
  selfReferences: { columns: string[]; referenced: string[] }[];
}

const PROJECTS = getTableConfig(schema.projects).name;

function describeTable(table: PgTable) {
  const config = getTableConfig(table);
  const composite = config.primaryKeys[0]?.columns;
  const primaryKey = (composite ?? config.columns.filter((column) => column.primary)).map(
    (column) => column.name,
  );
  const foreignKeys = config.foreignKeys.map((key) => {
    const reference = key.reference();
    return {
      table: getTableConfig(reference.foreignTable).name,
      cascades: key.onDelete === 'cascade',
      columns: reference.columns.map((column) => column.name),
      referenced: reference.foreignColumns.map((column) => column.name),
    };
  });
  return {
    name: config.name,
    primaryKey,
    hasProjectId: config.columns.some((column) => column.name === 'project_id'),
    foreignKeys: foreignKeys.filter((key) => key.table !== config.name),
    selfReferences: foreignKeys
      .filter((key) => key.table === config.name)
      .map(({ columns, referenced }) => ({ columns, referenced })),
  };
}

/**
 * Every table with a project_id column, ordered so that a table comes before the tables it
 * references: deleting in this order never leaves a cascade to do (messages before dialogues).
 */
function tenantTables(): TenantTable[] {
  const described = (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map(describeTable)
    .filter((table) => table.hasProjectId && table.name !== PROJECTS);
  const byName = new Map(described.map((table) => [table.name, table]));

  const cascades = (name: string, seen: Set<string> = new Set()): boolean => {
    const table = byName.get(name);
    if (!table || seen.has(name)) return false;
    seen.add(name);
    return table.foreignKeys.some(
      (key) => key.cascades && (key.table === PROJECTS || cascades(key.table, seen)),
    );
  };

  const ordered: TenantTable[] = [];
  const remaining = [...described];
  while (remaining.length > 0) {
    // The first table that no remaining table references.
    const index = remaining.findIndex(
      (candidate) =>
        !remaining.some((other) => other.foreignKeys.some((key) => key.table === candidate.name)),
    );
    if (index === -1) throw new Error('tenant tables reference each other in a cycle');
    const [table] = remaining.splice(index, 1);
    ordered.push({
      name: table!.name,
      primaryKey: table!.primaryKey,
      references: table!.foreignKeys.map((key) => key.table).filter((name) => byName.has(name)),
      cascadesFromProject: cascades(table!.name),
      selfReferences: table!.selfReferences,
    });
  }
  return ordered;
}

export const TENANT_TABLES: readonly TenantTable[] = Object.freeze(tenantTables());

/**
 * The tables Citus keeps a full copy of on every node (docs/scaling.md): `projects`, read by
 * every request and referenced by every tenant table; `api_keys`, which is looked up by key
 * hash (not by project) on every request; and `project_erasures`, the records that outlive their
 * project (D166), no tenant table. Every other tenant table is distributed by project_id.
 */
export const REFERENCE_TABLES: readonly string[] = Object.freeze([
  PROJECTS,
  getTableConfig(schema.apiKeys).name,
  getTableConfig(schema.projectErasures).name,
]);
