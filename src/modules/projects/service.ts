import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { ProjectSettings } from '../../core/context.js';
import { AppError, projectNotFound } from '../../core/errors.js';
import { newApiKey, newId } from '../../lib/ids.js';
import * as repo from './repository.js';
import type { ProjectSettingsInput } from './schemas.js';

const DEFAULT_PROJECT_NAME = 'default';

/** D6: keys are stored only as this hash. SHA-256 suffices for 256-bit random keys. */
const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

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
    if (!project) throw projectNotFound(id);
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
      if (!updated) throw projectNotFound(id);
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

    /** The project behind an API key, or undefined for an unknown or revoked key. */
    async authenticate(apiKey: string) {
      return repo.findKeyOwner(db, hashApiKey(apiKey));
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
