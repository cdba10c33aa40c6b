import type { ProjectContext } from '../../core/context.js';
import { dialogueNotFound } from '../../core/errors.js';
import type { Executor } from '../../db/client.js';
import type { DialogueSummary } from '../../db/schema.js';
import { dialogueSearchText } from './records.js';
import { type DialogueRow, findDialogue, lockDialogue, updateDialogue } from './repository.js';

export type { DialogueRow };

// What the dialogues module publishes for the summaries module (src/modules/summaries/): the
// dialogue's summary slot (`summary`, its reach and record, D22, D56), read, locked, set and
// cleared. The dialogues table stays this module's own: the summaries module writes it only here.

export interface DialogueSummarySlot {
  /** The dialogue, read without a lock; DIALOGUE_NOT_FOUND when it is not in the project. */
  find(db: Executor, ctx: ProjectContext, id: string): Promise<DialogueRow>;
  /** The dialogue, its row locked until the transaction ends (D35: new messages wait for it). */
  lock(tx: Executor, ctx: ProjectContext, id: string): Promise<DialogueRow>;
  /**
   * Puts `summary` on the dialogue, with the insertion sequence of the last message it covers
   * (null for a range's: compaction builds on no range) and its record. D41: the summary is part of
   * the dialogue's searchable text.
   */
  set(
    tx: Executor,
    ctx: ProjectContext,
    dialogue: DialogueRow,
    summary: DialogueSummary,
    reach: { coversSeq: number | null; summaryId: string },
  ): Promise<DialogueRow>;
  /** Takes the summary off the dialogue, with its embedding (which drew on it). */
  clear(tx: Executor, ctx: ProjectContext, dialogue: DialogueRow): Promise<void>;
}

export const dialogueSummarySlot: DialogueSummarySlot = {
  async find(db, ctx, id) {
    const row = await findDialogue(db, ctx.projectId, id);
    if (!row) throw dialogueNotFound(id);
    return row;
  },
  async lock(tx, ctx, id) {
    const row = await lockDialogue(tx, ctx.projectId, id);
    if (!row) throw dialogueNotFound(id);
    return row;
  },
  set: (tx, ctx, dialogue, summary, reach) =>
    updateDialogue(tx, ctx.projectId, dialogue.id, {
      summary,
      summaryCoversSeq: reach.coversSeq,
      summaryId: reach.summaryId,
      searchText: dialogueSearchText({ label: dialogue.label, tags: dialogue.tags, summary }),
    }),
  async clear(tx, ctx, dialogue) {
    await updateDialogue(tx, ctx.projectId, dialogue.id, {
      summary: null,
      summaryCoversSeq: null,
      summaryId: null,
      searchText: dialogueSearchText({ label: dialogue.label, tags: dialogue.tags }),
      embedding: null,
      embeddingModel: null,
    });
  },
};
