import type { ProjectContext } from '../../core/context.js';
import { summaryRecordRef, summaryRef } from '../../core/object-refs.js';
import type { Executor } from '../../db/client.js';
import type { StoredResponses } from '../../db/idempotency-store.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import type { DialogueRow, DialogueSummarySlot } from '../dialogues/summary-slot.js';
import { type MessageKey, deleteSummariesCovering } from './repository.js';

// D73: a summary that drew on a deleted message goes with it, in the deletion's transaction:
// every summary record that covers the message (D56), the dialogue's summary when it is one of
// them, the search text and the vector made from it, the stored idempotent responses that carried
// any of them, and the dialogue's earlier events (D70) that carried its summary. A later
// compaction makes a new one from the messages that remain.

export interface SummaryErasureDeps {
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue'>;
  storedResponses: Pick<StoredResponses, 'erase'>;
  outbox: Pick<EventOutbox, 'clearSummaries'>;
  /** The dialogue's summary, which goes when a message it drew on does. */
  dialogues: Pick<DialogueSummarySlot, 'clear'>;
}

export interface SummaryErasure {
  /**
   * Removes the summaries that cover the deleted message, and the dialogue's summary when it does.
   * `dialogue` is the row as locked by the deletion.
   */
  forgetIfDrawnOn(
    tx: Executor,
    ctx: ProjectContext,
    dialogue: DialogueRow,
    message: MessageKey,
  ): Promise<void>;
}

/**
 * Whether the dialogue's summary drew on the message: the summary record it copies was erased;
 * one made before records were kept covers the messages up to its reach, or all when unknown.
 */
const covers = (dialogue: DialogueRow, seq: number, erased: string[]): boolean =>
  dialogue.summary !== null &&
  (dialogue.summaryId !== null
    ? erased.includes(dialogue.summaryId)
    : dialogue.summaryCoversSeq === null || seq <= dialogue.summaryCoversSeq);

export function createSummaryErasure({
  embeddingQueue,
  storedResponses,
  outbox,
  dialogues,
}: SummaryErasureDeps): SummaryErasure {
  return {
    async forgetIfDrawnOn(tx, ctx, dialogue, message) {
      const { projectId } = ctx;
      const erased = await deleteSummariesCovering(tx, projectId, dialogue.id, message);
      const refs = erased.map((id) => summaryRecordRef(dialogue.id, id));
      if (!covers(dialogue, message.seq, erased)) {
        await storedResponses.erase(tx, projectId, refs);
        // D70: an earlier summary that drew on the message lives on in the dialogue.compacted
        // event that announced it, although the dialogue now holds a later one.
        if (erased.length > 0) await outbox.clearSummaries(tx, projectId, dialogue.id);
        return;
      }
      await dialogues.clear(tx, ctx, dialogue);
      if (dialogue.label !== null || dialogue.tags.length > 0) {
        await embeddingQueue.enqueue(tx, { projectId, objectType: 'dialogue', objectId: dialogue.id });
      }
      await storedResponses.erase(tx, projectId, [...refs, summaryRef(dialogue.id)]);
      // D70: and from the dialogue's earlier events.
      await outbox.clearSummaries(tx, projectId, dialogue.id);
    },
  };
}
