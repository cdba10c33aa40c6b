import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { ProjectSettings } from '../../core/context.js';
import { AppError } from '../../core/errors.js';
import { TENANT_TABLES, type TenantTable } from '../../db/tenant-tables.js';
import { newApiKey, newId } from '../../lib/ids.js';
import * as repo from './repository.js';
import type { ProjectSettingsInput } from './schemas.js';

export const DEFAULT_PROJECT_NAME = 'default';

/** D6: keys are stored only as this hash. SHA-256 suffices for 256-bit random keys. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export interface ProjectView {
  id: string;
  name: string;
  settings: ProjectSettings;
  created: string;
  modified: string;
}

const toView = (row: repo.ProjectRow): ProjectView => ({
  id: row.id,
  name: row.name,
  settings: row.settings,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

/** D8: a settings update is merged into the stored settings; `null` values are kept (they mean "default"). */
function mergeSettings(current: ProjectSettings, changes: ProjectSettingsInput): ProjectSettings {
  const merged: ProjectSettings = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value !== undefined)
      Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

/** D74: rows one erasure statement deletes at most, each statement its own short transaction. */
export const ERASE_BATCH_ROWS = 1000;
/** Passes over every table before the project row goes (the second one normally finds nothing). */
const ERASE_PASSES = 5;

export interface ProjectErasure {
  success: true;
  id: string;
  /** Rows removed per table, `projects` and `api_keys` included. */
  deleted: Record<string, number>;
}

export interface ProjectServiceDeps {
  /** The primary: keys and projects are read where they are written, so a revocation holds at once. */
  db: Database;
}

export function createProjectService({ db }: ProjectServiceDeps) {
  async function addKey(projectId: string, key = newApiKey()): Promise<{ id: string; apiKey: string }> {
    const id = newId('key');
    await repo.insertApiKey(db, { id, projectId, keyHash: hashApiKey(key), keyPrefix: key.slice(0, 9) });
    return { id, apiKey: key };
  }

  async function requireProject(id: string): Promise<repo.ProjectRow> {
    const project = await repo.findProject(db, id);
    if (!project) throw new AppError('PROJECT_NOT_FOUND', `Project ${id} not found`);
    return project;
  }

  return {
    async createProject(name: string, settings: ProjectSettingsInput = {}) {
      return db.transaction(async (tx) => {
        const project = await repo.insertProject(tx, {
          id: newId('prj'),
          name,
          settings: mergeSettings({}, settings),
        });
        const apiKey = newApiKey();
        const keyId = newId('key');
        await repo.insertApiKey(tx, {
          id: keyId,
          projectId: project.id,
          keyHash: hashApiKey(apiKey),
          keyPrefix: apiKey.slice(0, 9),
        });
        return { project: toView(project), apiKey, keyId };
      });
    },

    async listProjects(): Promise<ProjectView[]> {
      return (await repo.listProjects(db)).map(toView);
    },

    async getProject(id: string): Promise<ProjectView> {
      return toView(await requireProject(id));
    },

    async updateProject(id: string, changes: { name?: string; settings?: ProjectSettingsInput }) {
      const current = await requireProject(id);
      const updated = await repo.updateProject(db, id, {
        name: changes.name,
        settings: changes.settings ? mergeSettings(current.settings, changes.settings) : undefined,
      });
      if (!updated) throw new AppError('PROJECT_NOT_FOUND', `Project ${id} not found`);
      return toView(updated);
    },

    async createKey(projectId: string) {
      await requireProject(projectId);
      return addKey(projectId);
    },

    async revokeKey(projectId: string, keyId: string) {
      await requireProject(projectId);
      if (!(await repo.revokeApiKey(db, projectId, keyId))) {
        throw new AppError('API_KEY_NOT_FOUND', `Key ${keyId} not found in project ${projectId}`);
      }
      return { success: true, id: keyId };
    },

    /**
     * D9: makes sure the `default` project exists and, when given, that `bootstrapKey` is valid for
     * it. Without a configured key, a generated one is returned only when the project has none,
     * i.e. on the first start, to be printed once.
     */
    async ensureDefaultProject(bootstrapKey?: string): Promise<{ projectId: string; generatedKey?: string }> {
      const existing = await repo.findProjectByName(db, DEFAULT_PROJECT_NAME);
      const project =
        existing ?? (await repo.insertProject(db, { id: newId('prj'), name: DEFAULT_PROJECT_NAME }));
      if (bootstrapKey !== undefined) {
        const owner = await repo.findKeyOwner(db, hashApiKey(bootstrapKey));
        if (owner?.projectId !== project.id) {
          await repo.activateApiKey(db, {
            id: newId('key'),
            projectId: project.id,
            keyHash: hashApiKey(bootstrapKey),
            keyPrefix: bootstrapKey.slice(0, 9),
          });
        }
        return { projectId: project.id };
      }
      if ((await repo.countActiveKeys(db, project.id)) > 0) return { projectId: project.id };
      const { apiKey } = await addKey(project.id);
      return { projectId: project.id, generatedKey: apiKey };
    },

    /**
     * D74: erases a project and every row it owns. In order:
     * 1. its keys are revoked and committed: no new request gets in with them;
     * 2. every tenant table (TENANT_TABLES: every table of the schema with project_id) is emptied
     *    of the project's rows, ERASE_BATCH_ROWS by primary key per statement, each statement its
     *    own transaction holding locks on this project's rows only, children before parents;
     *    passes repeat until one finds nothing (writes accepted before the revocation may still
     *    land meanwhile);
     * 3. one transaction deletes what is left of the tables whose rows hang from the project row
     *    by ON DELETE CASCADE, then the project row. It waits for every write still inserting under
     *    the project (the foreign key check holds the project row), and whatever such a write added
     *    goes with the row by cascade; a write that comes later fails its foreign key and rolls
     *    back whole, its usage count and idempotency record with it;
     * 4. the tables without that foreign key (jobs, idempotency records, usage counters) are swept
     *    once more: a write that committed rows there before step 3 ended has been removed there.
     * docs/api-decisions.md ("Erasing a project") states the guarantee and its one assumption.
     */
    async eraseProject(id: string): Promise<ProjectErasure> {
      await requireProject(id);
      const deleted: Record<string, number> = { projects: 0 };
      for (const table of TENANT_TABLES) deleted[table.name] = 0;
      await repo.revokeProjectKeys(db, id);

      const emptyInBatches = async (tables: readonly TenantTable[]) => {
        let removed = 0;
        for (const table of tables) {
          for (;;) {
            const count = await repo.deleteProjectRows(db, table, id, ERASE_BATCH_ROWS);
            deleted[table.name]! += count;
            removed += count;
            if (count < ERASE_BATCH_ROWS) break;
          }
        }
        return removed;
      };
      for (let pass = 0; pass < ERASE_PASSES; pass++) {
        if ((await emptyInBatches(TENANT_TABLES)) === 0) break;
      }

      await db.transaction(async (tx) => {
        for (const table of TENANT_TABLES.filter((t) => t.cascadesFromProject)) {
          deleted[table.name]! += await repo.deleteProjectRows(tx, table, id);
        }
        deleted.projects = await repo.deleteProject(tx, id);
      });

      await emptyInBatches(TENANT_TABLES.filter((t) => !t.cascadesFromProject));
      return { success: true, id, deleted };
    },

    /** The project behind an API key, or undefined for an unknown or revoked key. */
    async authenticate(apiKey: string) {
      return repo.findKeyOwner(db, hashApiKey(apiKey));
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
