import type { Executor } from '../../db/client.js';
import type { EmbeddingTarget } from './job-sql.js';
import { deleteDialogueEmbeddingJobs, deleteEmbeddingJob, enqueueEmbedding } from './repository.js';

// D40: what the other modules do to the embedding queue, always inside their write's transaction,
// so that a job exists exactly when the write that needs it commits. D79: without an embedder
// (EMBEDDINGS=none) nothing is queued; jobs queued before stay for an embedder configured later.

export interface EmbeddingQueue {
  /** False without an embedder (D79): writes queue no jobs (the append statement reads it too). */
  readonly enabled: boolean;
  /** Enqueues (or re-arms) the jobs of objects whose text changed; nothing when not enabled. */
  enqueue(tx: Executor, targets: EmbeddingTarget | EmbeddingTarget[]): Promise<void>;
  /** Drops the pending job of a deleted object (its vector went with its row, D23). */
  forget(tx: Executor, target: EmbeddingTarget): Promise<void>;
  /** Drops the pending jobs of a deleted dialogue and of all its messages (D23). */
  forgetDialogue(tx: Executor, projectId: string, dialogueId: string): Promise<void>;
}

export function createEmbeddingQueue({ enabled }: { enabled: boolean }): EmbeddingQueue {
  return {
    enabled,
    enqueue: enabled ? enqueueEmbedding : async () => {},
    // A deleted object's job goes with it either way (D23): it could never be done.
    forget: deleteEmbeddingJob,
    forgetDialogue: deleteDialogueEmbeddingJobs,
  };
}
