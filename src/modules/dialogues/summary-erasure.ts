import type { ProjectContext } from '../../core/context.js';
import { summaryRef } from '../../core/object-refs.js';
import type { Executor } from '../../db/client.js';
import type { StoredResponses } from '../../db/idempotency-store.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { dialogueSearchText } from './records.js';
import { type DialogueRow, updateDialogue } from './repository.js';

// D73: a summary that drew on a deleted message goes with it, in the deletion's transaction:
// the summary itself, the search text and the vector made from it, the stored idempotent
// responses and the earlier events (D70) that carried it. A later compaction makes a new one
// from the messages that remain.

export interface SummaryErasureDeps {
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue'>;
  storedResponses: Pick<StoredResponses, 'erase'>;
  events: Pick<EventOutbox, 'clearSummaries'>;
}

export interface SummaryErasure {
  /**
   * Removes the dialogue's summary when it covers the message of insertion sequence `seq`.
   * `dialogue` is the row as locked by the deletion.
   */
  forgetIfDrawnOn(tx: Executor, ctx: ProjectContext, dialogue: DialogueRow, seq: number): Promise<void>;
}

/** Whether the summary drew on the message: a summary of unknown reach is taken to cover all. */
const covers = (dialogue: DialogueRow, seq: number): boolean =>
  dialogue.summary !== null && (dialogue.summaryCoversSeq === null || seq <= dialogue.summaryCoversSeq);

export function createSummaryErasure({
  embeddingQueue,
  storedResponses,
  events,
}: SummaryErasureDeps): SummaryErasure {
  return {
    async forgetIfDrawnOn(tx, ctx, dialogue, seq) {
      if (!covers(dialogue, seq)) return;
      const { projectId } = ctx;
      await updateDialogue(tx, projectId, dialogue.id, {
        summary: null,
        summaryCoversSeq: null,
        searchText: dialogueSearchText({ label: dialogue.label, tags: dialogue.tags }),
        // The vector was made from the summary too (D41): it goes, and is made again without it.
        embedding: null,
        embeddingModel: null,
      });
      if (dialogue.label !== null || dialogue.tags.length > 0) {
        await embeddingQueue.enqueue(tx, { projectId, objectType: 'dialogue', objectId: dialogue.id });
      }
      await storedResponses.erase(tx, projectId, [summaryRef(dialogue.id)]);
      // D70: and from the dialogue's earlier events.
      await events.clearSummaries(tx, projectId, dialogue.id);
    },
  };
}
