import type { Database } from '../../db/client.js';
import { AppError, projectNotFound } from '../../core/errors.js';
import { TENANT_TABLES, type TenantTable } from '../../db/tenant-tables.js';
import { newId } from '../../lib/ids.js';
import * as records from './erasure-repository.js';
import * as repo from './repository.js';

// Erasing a project (D74) and its record (D166).

/** D74: rows one erasure statement deletes at most, each statement its own short transaction. */
export const ERASE_BATCH_ROWS = 1000;
/** Passes over every table before the project row goes (the second one normally finds nothing). */
const ERASE_PASSES = 5;
/** D166: how long a running erasure is its request's before another request may resume it. */
const LEASE_MS = 60_000;

/** D166: the record of a project's erasure, its receipt. */
export interface ProjectErasureRecord {
  id: string;
  projectId: string;
  status: 'pending' | 'completed';
  /** The objects erased, as a namespace erasure counts them. */
  counts: { dialogues: number; messages: number; memories: number };
  /** Rows removed per table, `projects` and `api_keys` included. */
  rows: Record<string, number>;
  createdAt: string;
  completedAt: string | null;
}

/** The answer of DELETE /admin/v1/projects/{id}. */
export interface ProjectErasure {
  /** True once nothing of the project is left. */
  success: boolean;
  id: string;
  /** Rows removed per table (the record's `rows`). */
  deleted: Record<string, number>;
  erasure: ProjectErasureRecord;
}

const emptyRows = (): Record<string, number> =>
  Object.fromEntries([['projects', 0], ...TENANT_TABLES.map((table) => [table.name, 0])]);

const countsOf = (rows: Record<string, number>) => ({
  dialogues: rows.dialogues ?? 0,
  messages: rows.messages ?? 0,
  memories: rows.memories ?? 0,
});

const toProjectErasureRecord = (row: records.ProjectErasureRow): ProjectErasureRecord => ({
  id: row.id,
  projectId: row.erasedProjectId,
  status: row.status,
  counts: countsOf(row.rows),
  rows: { ...emptyRows(), ...row.rows },
  createdAt: row.created.toISOString(),
  completedAt: row.completedAt?.toISOString() ?? null,
});

const toAnswer = (row: records.ProjectErasureRow): ProjectErasure => {
  const erasure = toProjectErasureRecord(row);
  return { success: erasure.status === 'completed', id: erasure.projectId, deleted: erasure.rows, erasure };
};

/** Thrown inside a run whose lease another request took over: it stops where it is. */
class TakenOver extends Error {}

export interface ProjectEraserDeps {
  db: Database;
  /** Revokes the project's keys in this instance's key directory (they are revoked in the database first). */
  forgetKeys: (projectId: string) => void;
  now?: () => number;
}

export function createProjectEraser({ db, forgetKeys, now = Date.now }: ProjectEraserDeps) {
  /**
   * D74: erases every row of a project whose erasure record this request holds (`held`, its
   * lease), adding to the rows the record counts already. In order:
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
   * Every step is safe to run again, so a request after a crash resumes from the start and only
   * finds less to do. The record's counts and lease are written after each table and at the end.
   * docs/api-decisions.md ("Erasing a project") states the guarantee and its one assumption.
   */
  async function run(row: records.ProjectErasureRow, held: Date): Promise<records.ProjectErasureRow> {
    const projectId = row.erasedProjectId;
    const rows = { ...emptyRows(), ...row.rows };
    const save = async (completedAt?: Date) => {
      const leaseUntil = new Date(now() + LEASE_MS);
      const saved = await records.recordProjectErasure(db, row.id, held, {
        counts: countsOf(rows),
        rows,
        leaseUntil,
        completedAt,
      });
      if (!saved) throw new TakenOver();
      held = leaseUntil;
      return saved;
    };

    await repo.revokeProjectKeys(db, projectId);
    forgetKeys(projectId);

    const emptyInBatches = async (tables: readonly TenantTable[]) => {
      let removed = 0;
      for (const table of tables) {
        const before = rows[table.name]!;
        for (;;) {
          const count = await repo.deleteProjectRows(db, table, projectId, ERASE_BATCH_ROWS);
          rows[table.name]! += count;
          if (count < ERASE_BATCH_ROWS) break;
        }
        if (rows[table.name]! > before) {
          removed += rows[table.name]! - before;
          await save();
        }
      }
      return removed;
    };
    for (let pass = 0; pass < ERASE_PASSES; pass++) {
      if ((await emptyInBatches(TENANT_TABLES)) === 0) break;
    }

    await db.transaction(async (tx) => {
      for (const table of TENANT_TABLES.filter((t) => t.cascadesFromProject)) {
        rows[table.name]! += await repo.deleteProjectRows(tx, table, projectId);
      }
      rows.projects! += await repo.deleteProject(tx, projectId);
    });

    await emptyInBatches(TENANT_TABLES.filter((t) => !t.cascadesFromProject));
    return save(new Date(now()));
  }

  return {
    /**
     * DELETE /admin/v1/projects/{id} and `parley project erase` (D74, D166): erases the project
     * and answers its completed record. A request while another one runs the erasure answers the
     * record as it stands (pending); a request after a crash resumes it once its lease ran out;
     * a request after the erasure answers the completed record again.
     */
    async erase(projectId: string): Promise<ProjectErasure> {
      let row = await records.findLatestProjectErasure(db, projectId);
      if (row?.status !== 'pending') {
        if (!(await repo.findProject(db, projectId))) {
          if (row) return toAnswer(row);
          throw projectNotFound(projectId);
        }
        row =
          (await records.insertProjectErasure(db, { id: newId('era'), erasedProjectId: projectId })) ??
          (await records.findLatestProjectErasure(db, projectId));
        if (row?.status !== 'pending') {
          throw new AppError('RESOURCE_CONFLICT', `The erasure of ${projectId} changed meanwhile; retry`);
        }
      }
      const held = new Date(now() + LEASE_MS);
      const claimed = await records.claimProjectErasure(db, row.id, new Date(now()), held);
      if (!claimed) return toAnswer(row);
      try {
        return toAnswer(await run(claimed, held));
      } catch (error) {
        if (!(error instanceof TakenOver)) throw error;
        return toAnswer((await records.findProjectErasure(db, row.id)) ?? row);
      }
    },

    /** GET /admin/v1/erasures/{id} (D166). */
    async get(id: string): Promise<ProjectErasureRecord> {
      const row = await records.findProjectErasure(db, id);
      if (!row) throw new AppError('RESOURCE_NOT_FOUND', `Erasure ${id} not found`);
      return toProjectErasureRecord(row);
    },
  };
}
