import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { builtOnce } from '../../db/prepared.js';
import type { ProjectSettings } from '../../core/context.js';
import { apiKeys, projects } from '../../db/schema.js';
import type { TenantTable } from '../../db/tenant-tables.js';

export type ProjectRow = typeof projects.$inferSelect;

export async function insertProject(db: Executor, row: typeof projects.$inferInsert): Promise<ProjectRow> {
  const [project] = await db.insert(projects).values(row).returning();
  return project!;
}

export async function findProject(db: Executor, id: string): Promise<ProjectRow | undefined> {
  const [project] = await db.select().from(projects).where(eq(projects.id, id));
  return project;
}

export async function findProjectByName(db: Executor, name: string): Promise<ProjectRow | undefined> {
  const [project] = await db
    .select()
    .from(projects)
    .where(eq(projects.name, name))
    .orderBy(asc(projects.created))
    .limit(1);
  return project;
}

export async function listProjects(db: Executor): Promise<ProjectRow[]> {
  return db.select().from(projects).orderBy(asc(projects.created), asc(projects.id));
}

export async function updateProject(
  db: Executor,
  id: string,
  changes: { name?: string; settings?: ProjectSettings },
): Promise<ProjectRow | undefined> {
  const [project] = await db
    .update(projects)
    .set({ ...changes, modified: new Date() })
    .where(eq(projects.id, id))
    .returning();
  return project;
}

export async function insertApiKey(db: Executor, row: typeof apiKeys.$inferInsert): Promise<void> {
  await db.insert(apiKeys).values(row).onConflictDoNothing({ target: apiKeys.keyHash });
}

/** Makes a given key valid for a project, whatever became of it before (D9 bootstrap key). */
export async function activateApiKey(db: Executor, row: typeof apiKeys.$inferInsert): Promise<void> {
  await db
    .insert(apiKeys)
    .values(row)
    .onConflictDoUpdate({ target: apiKeys.keyHash, set: { projectId: row.projectId, revokedAt: null } });
}

/**
 * A revoked key keeps the time of its first revocation (D83 lists it): `least` skips a NULL, and a
 * first revocation is never later than now. Not `coalesce`: Citus refuses a function that is not
 * immutable inside it in an UPDATE of its tables (docs/scaling.md).
 */
const revokedNow = { revokedAt: sql`least(${apiKeys.revokedAt}, now())` };

/** Revokes a key of a project; its hash, or undefined when the project has no such key. */
export async function revokeApiKey(
  db: Executor,
  projectId: string,
  keyId: string,
): Promise<string | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set(revokedNow)
    .where(and(eq(apiKeys.projectId, projectId), eq(apiKeys.id, keyId)))
    .returning({ keyHash: apiKeys.keyHash });
  return row?.keyHash;
}

/** Revokes the key with this hash, whichever project it belongs to; undefined when none has it. */
export async function revokeApiKeyByHash(
  db: Executor,
  keyHash: string,
): Promise<{ id: string; projectId: string } | undefined> {
  const [row] = await db
    .update(apiKeys)
    .set(revokedNow)
    .where(eq(apiKeys.keyHash, keyHash))
    .returning({ id: apiKeys.id, projectId: apiKeys.projectId });
  return row;
}

export type ApiKeyRow = Pick<
  typeof apiKeys.$inferSelect,
  'id' | 'keyPrefix' | 'created' | 'lastUsed' | 'revokedAt'
>;

/** A project's keys, revoked ones included, oldest first (D83). */
export async function listApiKeys(db: Executor, projectId: string): Promise<ApiKeyRow[]> {
  return db
    .select({
      id: apiKeys.id,
      keyPrefix: apiKeys.keyPrefix,
      created: apiKeys.created,
      lastUsed: apiKeys.lastUsed,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.projectId, projectId))
    .orderBy(asc(apiKeys.created), asc(apiKeys.id));
}

/**
 * D83: records that a key was used at `at`, unless some instance already did after `staleBefore`,
 * so that instances sharing a database write a key's row at most about once a minute between them.
 */
export async function touchApiKey(
  db: Executor,
  key: { projectId: string; keyId: string },
  at: Date,
  staleBefore: Date,
): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsed: at })
    .where(
      and(
        eq(apiKeys.projectId, key.projectId),
        eq(apiKeys.id, key.keyId),
        or(isNull(apiKeys.lastUsed), lt(apiKeys.lastUsed, staleBefore)),
      ),
    );
}

/** Every active key, by hash (what an instance knows of the keys, D76). */
export async function listActiveKeys(
  db: Executor,
): Promise<{ keyHash: string; projectId: string; keyId: string }[]> {
  return db
    .select({ keyHash: apiKeys.keyHash, projectId: apiKeys.projectId, keyId: apiKeys.id })
    .from(apiKeys)
    .where(isNull(apiKeys.revokedAt));
}

export async function countActiveKeys(db: Executor, projectId: string): Promise<number> {
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)));
  return rows.length;
}

export interface KeyOwner {
  keyId: string;
  projectId: string;
  settings: ProjectSettings;
}

/** Every request runs the key lookup (src/db/prepared.ts, builtOnce). */
export const keyOwnerQuery = builtOnce((db) =>
  db
    .select({ keyId: apiKeys.id, projectId: apiKeys.projectId, settings: projects.settings })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('keyHash')), isNull(apiKeys.revokedAt)))
    .prepare('parley_find_key_owner'),
);

/** The project of an active key, found by the key's hash. */
export async function findKeyOwner(db: Executor, keyHash: string): Promise<KeyOwner | undefined> {
  const [row] = await keyOwnerQuery(db).execute({ keyHash });
  return row;
}

export const projectSettingsQuery = builtOnce((db) =>
  db
    .select({ settings: projects.settings })
    .from(projects)
    .where(eq(projects.id, sql.placeholder('id')))
    .prepare('parley_find_project_settings'),
);

/** A project's settings, read on every request whose key came from the key cache (D76). */
export async function findProjectSettings(db: Executor, id: string): Promise<ProjectSettings | undefined> {
  const [row] = await projectSettingsQuery(db).execute({ id });
  return row?.settings;
}

// D74: erasing a project. Every statement names the project's id, so that it touches only that
// project's rows (one shard on Citus, D49).

/** Rows changed by a raw statement: node-postgres says `rowCount`, PGlite `affectedRows`. */
const affectedRows = (result: unknown): number => {
  const { rowCount, affectedRows: affected } = result as { rowCount?: number | null; affectedRows?: number };
  return Number(rowCount ?? affected ?? 0);
};

/** Revokes every active key of a project; returns how many were active. */
export async function revokeProjectKeys(db: Executor, projectId: string): Promise<number> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return rows.length;
}

/**
 * Deletes a project's rows of one tenant table: at most `limit` of them, picked by primary key,
 * or all of them without a limit.
 */
export async function deleteProjectRows(
  db: Executor,
  table: TenantTable,
  projectId: string,
  limit?: number,
): Promise<number> {
  const name = sql.identifier(table.name);
  if (limit === undefined) {
    return affectedRows(await db.execute(sql`DELETE FROM ${name} WHERE project_id = ${projectId}`));
  }
  const key = sql.join(
    table.primaryKey.map((column) => sql.identifier(column)),
    sql`, `,
  );
  // A batch takes rows no other row references (threads before their parents, D23): the
  // self-reference has no ON DELETE action (docs/scaling.md), and a whole table's rows go in one
  // statement only without a limit.
  const unreferenced = table.selfReferences.map(
    ({ columns, referenced }) =>
      sql` AND NOT EXISTS (SELECT 1 FROM ${name} AS child WHERE ${sql.join(
        columns.map(
          (column, i) => sql`child.${sql.identifier(column)} = t.${sql.identifier(referenced[i]!)}`,
        ),
        sql` AND `,
      )})`,
  );
  return affectedRows(
    await db.execute(sql`
      DELETE FROM ${name}
      WHERE project_id = ${projectId} AND (${key}) IN (
        SELECT ${key} FROM ${name} AS t WHERE project_id = ${projectId}${sql.join(unreferenced, sql``)}
        LIMIT ${limit}::int)`),
  );
}

/** Deletes the project row; the foreign keys with ON DELETE CASCADE take what still hangs from it. */
export async function deleteProject(db: Executor, projectId: string): Promise<number> {
  const rows = await db.delete(projects).where(eq(projects.id, projectId)).returning({ id: projects.id });
  return rows.length;
}
