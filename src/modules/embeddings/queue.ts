import type { Executor } from '../../db/client.js';
import {
  type EmbeddingTarget,
  deleteDialogueEmbeddingJobs,
  deleteEmbeddingJob,
  enqueueEmbedding,
} from './repository.js';

// D40: what the other modules do to the embedding queue, always inside their write's transaction,
// so that a job exists exactly when the write that needs it commits.

export interface EmbeddingQueue {
  /** Enqueues (or re-arms) the jobs of objects whose text changed. */
  enqueue(tx: Executor, targets: EmbeddingTarget | EmbeddingTarget[]): Promise<void>;
  /** Drops the pending job of a deleted object (its vector went with its row, D23). */
  forget(tx: Executor, target: EmbeddingTarget): Promise<void>;
  /** Drops the pending jobs of a deleted dialogue and of all its messages (D23). */
  forgetDialogue(tx: Executor, projectId: string, dialogueId: string): Promise<void>;
}

export function createEmbeddingQueue(): EmbeddingQueue {
  return {
    enqueue: enqueueEmbedding,
    forget: deleteEmbeddingJob,
    forgetDialogue: deleteDialogueEmbeddingJobs,
  };
}
