import { createHash } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { ProjectSettings } from '../../core/context.js';
import { AppError, projectNotFound } from '../../core/errors.js';
import { newApiKey, newId } from '../../lib/ids.js';
import { createProjectEraser } from './erasure.js';
import { createKeyDirectory } from './key-directory.js';
import * as repo from './repository.js';
import type { ProjectSettingsInput } from './schemas.js';
import { mergeRetention } from '../retention/policy.js';

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

/**
 * D8: a settings update is merged into the stored settings; `null` values are kept (they mean
 * "default"), except in the retention policy, merged rule by rule, where null removes (D151).
 */
function mergeSettings(current: ProjectSettings, changes: ProjectSettingsInput): ProjectSettings {
  const { retention, ...rest } = changes;
  const merged: ProjectSettings = { ...current };
  if (retention !== undefined) {
    const policy = mergeRetention(current.retention, retention);
    if (policy === undefined) delete merged.retention;
    else merged.retention = policy;
  }
  for (const [key, value] of Object.entries(rest)) {
    if (value !== undefined)
      Object.defineProperty(merged, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

/** What authenticating a key found. */
type KeyCheck =
  | { owner: repo.KeyOwner }
  /** `lookedUp` false: the key is unknown to this instance and the caller declined a lookup. */
  | { owner: undefined; lookedUp: boolean };

/**
 * D76: the shortest time between two reloads of the active keys, one failure window: an address
 * that spends its failure budget makes the instance read the keys again at most this often.
 */
const KEY_RELOAD_INTERVAL_MS = 60_000;

/** D83: a key's `lastUsed` is written at most this often, so that requests do not each cause a write. */
const LAST_USED_INTERVAL_MS = 60_000;

/** D83: a key as listed; never the key itself. */
export interface ApiKeyView {
  id: string;
  prefix: string;
  created: string;
  lastUsed: string | null;
  revoked: string | null;
}

const toKeyView = (row: repo.ApiKeyRow): ApiKeyView => ({
  id: row.id,
  prefix: row.keyPrefix,
  created: row.created.toISOString(),
  lastUsed: row.lastUsed?.toISOString() ?? null,
  revoked: row.revokedAt?.toISOString() ?? null,
});

export interface ProjectServiceDeps {
  /** The primary: keys and projects are read where they are written, so a revocation holds at once. */
  db: Database;
  /** AUTH_CACHE_TTL_MS (D76): how long a verified key is trusted without a lookup; 0 or absent: never. */
  keyCacheTtlMs?: number;
  /** The clock of `lastUsed` (tests move it). */
  now?: () => number;
}

/**
 * Projects and keys, for the admin API and the `parley` commands. D86: these are an operator's
 * writes, on no project's behalf: they open their own short transactions instead of the unit of
 * work's (no plan quota, no Idempotency-Key, no events).
 */
export function createProjectService({ db, keyCacheTtlMs = 0, now = Date.now }: ProjectServiceDeps) {
  const keys = createKeyDirectory({ trustMs: keyCacheTtlMs, reloadIntervalMs: KEY_RELOAD_INTERVAL_MS });
  const eraser = createProjectEraser({ db, forgetKeys: (id) => keys.revokedProject(id) });
  /** When this instance last wrote each key's `lastUsed`, by key id. */
  const lastUsedWrites = new Map<string, number>();

  /** D83: `lastUsed` moves when a key was last written over a minute ago, by this instance or another. */
  async function recordUse(owner: { projectId: string; keyId: string }): Promise<void> {
    const at = now();
    const written = lastUsedWrites.get(owner.keyId);
    if (written !== undefined && at - written < LAST_USED_INTERVAL_MS) return;
    lastUsedWrites.set(owner.keyId, at);
    try {
      await repo.touchApiKey(db, owner, new Date(at), new Date(at - LAST_USED_INTERVAL_MS));
    } catch {
      // A hint for people, never a reason to fail the request; the next use tries again. A
      // database that is really gone fails the request's own statements anyway.
      lastUsedWrites.delete(owner.keyId);
    }
  }

  async function addKey(projectId: string, key = newApiKey()): Promise<{ id: string; apiKey: string }> {
    const id = newId('key');
    const keyHash = hashApiKey(key);
    await repo.insertApiKey(db, { id, projectId, keyHash, keyPrefix: key.slice(0, 9) });
    keys.verified(keyHash, { projectId, keyId: id });
    return { id, apiKey: key };
  }

  /**
   * D6, D76: the project behind a key. A key verified less than AUTH_CACHE_TTL_MS ago costs only
   * the read of its project's settings (never cached); any other costs one lookup, as before
   * the cache, unless this instance does not know the key and `mayLookUpUnknown` says no.
   */
  async function checkKey(
    apiKey: string,
    { mayLookUpUnknown }: { mayLookUpUnknown?: () => Promise<boolean> } = {},
  ): Promise<KeyCheck> {
    const keyHash = hashApiKey(apiKey);
    const known = keys.get(keyHash);
    if (known && keys.trusted(known)) {
      const settings = await repo.findProjectSettings(db, known.projectId);
      if (settings) {
        await recordUse(known);
        return { owner: { projectId: known.projectId, keyId: known.keyId, settings } };
      }
    }
    if (!known && mayLookUpUnknown && !(await mayLookUpUnknown()))
      return { owner: undefined, lookedUp: false };
    const mark = keys.mark();
    const owner = await repo.findKeyOwner(db, keyHash);
    if (!owner) {
      keys.forget(keyHash);
      return { owner: undefined, lookedUp: true };
    }
    keys.verified(keyHash, owner, mark);
    await recordUse(owner);
    return { owner };
  }

  async function requireProject(id: string): Promise<repo.ProjectRow> {
    const project = await repo.findProject(db, id);
    if (!project) throw projectNotFound(id);
    return project;
  }

  return {
    async createProject(name: string, settings: ProjectSettingsInput = {}) {
      const created = await db.transaction(async (tx) => {
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
      keys.verified(hashApiKey(created.apiKey), { projectId: created.project.id, keyId: created.keyId });
      return created;
    },

    async listProjects(): Promise<ProjectView[]> {
      return (await repo.listProjects(db)).map(toView);
    },

    /** The project's settings; undefined when there is no such project. */
    async settingsOf(id: string): Promise<ProjectSettings | undefined> {
      return (await repo.findProject(db, id))?.settings;
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

    /** D83: a project's keys, revoked ones included. */
    async listKeys(projectId: string): Promise<ApiKeyView[]> {
      await requireProject(projectId);
      return (await repo.listApiKeys(db, projectId)).map(toKeyView);
    },

    async revokeKey(projectId: string, keyId: string) {
      await requireProject(projectId);
      const keyHash = await repo.revokeApiKey(db, projectId, keyId);
      if (!keyHash) throw new AppError('API_KEY_NOT_FOUND', `Key ${keyId} not found in project ${projectId}`);
      // D76: in force on this instance as soon as the answer leaves; others within AUTH_CACHE_TTL_MS.
      keys.revoked(keyHash);
      return { success: true, id: keyId };
    },

    /** D83: revokes a key given by its value, in whichever project it belongs to. */
    async revokeKeyByValue(apiKey: string) {
      const keyHash = hashApiKey(apiKey);
      const revoked = await repo.revokeApiKeyByHash(db, keyHash);
      // The key itself is never echoed: an error message may be logged or shown.
      if (!revoked) throw new AppError('API_KEY_NOT_FOUND', 'No API key matches the key given');
      // D76: as revokeKey.
      keys.revoked(keyHash);
      return { success: true, id: revoked.id, projectId: revoked.projectId };
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
          keys.revoked(hashApiKey(bootstrapKey));
        }
        return { projectId: project.id };
      }
      if ((await repo.countActiveKeys(db, project.id)) > 0) return { projectId: project.id };
      const { apiKey } = await addKey(project.id);
      return { projectId: project.id, generatedKey: apiKey };
    },

    checkKey,
    /** D74, D166: erases a project and every row it owns, and answers the erasure's record. */
    eraseProject: eraser.erase,
    /** D166: a project erasure's record. */
    getErasure: eraser.get,

    /** The project behind an API key, or undefined for an unknown or revoked key. */
    async authenticate(apiKey: string): Promise<repo.KeyOwner | undefined> {
      return (await checkKey(apiKey)).owner;
    },

    /**
     * D76: reads which keys are active, so that a valid key this instance has not used yet is
     * still looked up for an address past its failure limit. At start (`loadKeys`), and again
     * when an address spends its budget (`reloadKeys`, at most once per KEY_RELOAD_INTERVAL_MS).
     */
    async loadKeys(): Promise<void> {
      await keys.reload(() => repo.listActiveKeys(db), { throttled: false });
    },

    async reloadKeys(): Promise<void> {
      await keys.reload(() => repo.listActiveKeys(db));
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
