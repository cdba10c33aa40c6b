import { type SQL, sql } from 'drizzle-orm';

// The embedding queue's part of a statement another module runs (the message append writes its
// messages' jobs in its own statement, D35, D40): published here so that no module imports
// another's repository.

export type EmbeddingObjectType = 'message' | 'dialogue' | 'memory';

export interface EmbeddingTarget {
  projectId: string;
  objectType: EmbeddingObjectType;
  /** The message's dialogue for message jobs (message ids are unique only within it, D27). */
  dialogueId?: string;
  objectId: string;
}

/**
 * The upsert that enqueues (or re-arms) the jobs of the rows `source` yields, as
 * (project_id, object_type, dialogue_id, object_id). Re-arming gives the job a new id: a worker
 * that is busy with the older text then finds no job of its id to complete, and leaves the job in
 * place for the newer one. The new id and times come from the inserted row's defaults
 * (`excluded`): Citus refuses any function that is not immutable in DO UPDATE SET (docs/scaling.md).
 */
export const enqueueJobsFrom = (source: SQL): SQL => sql`
  INSERT INTO embedding_jobs (project_id, object_type, dialogue_id, object_id) ${source}
  ON CONFLICT (project_id, object_type, dialogue_id, object_id) DO UPDATE SET
    id = excluded.id, attempts = 0, run_at = excluded.run_at, locked_until = NULL, last_error = NULL,
    created = excluded.created`;

/** The jobs of `targets` as a VALUES list for `enqueueJobsFrom`. */
export const jobValues = (targets: EmbeddingTarget[]): SQL =>
  sql`VALUES ${sql.join(
    targets.map(
      (target) =>
        sql`(${target.projectId}, ${target.objectType}, ${target.dialogueId ?? ''}, ${target.objectId})`,
    ),
    sql`, `,
  )}`;
