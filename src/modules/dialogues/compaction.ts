import type { Database, Executor } from '../../db/client.js';
import type { DialogueSummary } from '../../db/schema.js';
import { AppError, dialogueNotFound } from '../../core/errors.js';
import { RawJson } from '../../core/raw-json.js';
import type { ProjectContext } from '../../core/context.js';
import type { Summarizer } from '../../summaries/summarizer.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { dialogueEvent } from '../events/records.js';
import * as repo from './compaction-repository.js';
import {
  type DialogueRecord,
  type DialogueWithMessages,
  dialogueSearchText,
  toDialogueRecord,
} from './records.js';
import * as dialogueRepo from './repository.js';
import type { DialogueService } from './service.js';

// D21, D22: compaction and continuation. The model works outside any transaction (no network call holds one open): the
// messages are read and summarized first; then one short write transaction stores the summary,
// but only if the dialogue's summary is still the one the new summary was built on. Otherwise the
// round is redone on top of the newer summary, so concurrent compactions leave one consistent
// summary and never lose the messages another compaction covered.

/** Rounds of "summarize, then store if nothing changed" before giving up with a conflict. */
const ROUNDS = 4;

export interface CompactionDeps {
  /** The primary: a summary is built on what the write that stores it will find. */
  db: Database;
  summarizer: Summarizer;
  dialogues: Pick<DialogueService, 'end' | 'create'>;
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue'>;
  events: Pick<EventOutbox, 'record'>;
}

/** Runs a write transaction: `sendWrite`/`runWrite` (guards, Idempotency-Key, D36), or a plain one. */
export type WriteRunner<T> = (fn: (tx: Executor) => Promise<unknown>) => Promise<T>;

/** The dialogue changed between the summary and its storing: the round starts over. */
class StaleSummary extends Error {
  constructor(
    /** False when the unstored summary drew on a message deleted since: the next round starts afresh. */
    readonly reusable = true,
  ) {
    super('stale summary');
  }
}

/** A summary made outside any transaction, with what it was built on. */
interface Prepared {
  /** The dialogue's summary when the messages were read. */
  previous: DialogueSummary | null;
  /** The new summary, or null when the previous one covers every message already. */
  summary: DialogueSummary | null;
  /** Insertion sequence of the last message the resulting summary covers (0: none). */
  coveredSeq: number;
  /**
   * Insertion sequences of the messages read for the new summary. D73: a summary may not be
   * stored if one of them was deleted meanwhile (its words would outlive it).
   */
  drawnOn: number[];
}

const sameSummary = (a: DialogueSummary | null, b: DialogueSummary | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.created === b.created &&
    a.upToMessageId === b.upToMessageId &&
    a.messageCount === b.messageCount &&
    a.model === b.model);

export function createCompactionService({
  db,
  summarizer,
  dialogues,
  embeddingQueue,
  events,
}: CompactionDeps) {
  /**
   * Reads what the stored summary lacks and summarizes it, outside any transaction. `carried` is
   * the previous round's summary, which was not stored: when the dialogue's summary is still the
   * one it was built on, this round builds on it and reads only the messages that came since.
   */
  async function prepare(ctx: ProjectContext, id: string, carried?: Prepared): Promise<Prepared> {
    const row = await dialogueRepo.findDialogue(db, ctx.projectId, id);
    if (!row) throw dialogueNotFound(id);
    const previous = row.summary;
    let basis: DialogueSummary | null;
    let upTo: number;
    let drawnBefore: number[] = [];
    if (carried?.summary && sameSummary(previous, carried.previous)) {
      basis = carried.summary;
      upTo = carried.coveredSeq;
      drawnBefore = carried.drawnOn;
    } else {
      // Incremental: the stored summary and the messages stored after the last one it covers.
      // A summary of unknown reach (made before coverage was recorded) is made again from all.
      const seq = previous ? row.summaryCoversSeq : null;
      basis = seq === null ? null : previous;
      upTo = seq ?? 0;
    }
    const fresh = await repo.messagesAfter(db, ctx.projectId, id, upTo);
    if (fresh.length === 0) {
      return { previous, summary: basis === previous ? null : basis, coveredSeq: upTo, drawnOn: drawnBefore };
    }

    const text = await summarizer.summarize({
      previous: basis?.text ?? null,
      messages: fresh.filter((message) => message.text.trim() !== ''),
    });
    // Coverage follows insertion order, so that a message stored later with an earlier
    // `created` is still taken in by the next compaction.
    const last = fresh.reduce((a, b) => (b.seq > a.seq ? b : a));
    return {
      previous,
      summary: {
        text,
        model: summarizer.model,
        messageCount: (basis?.messageCount ?? 0) + fresh.length,
        upToMessageId: last.id,
        created: new Date().toISOString(),
      },
      coveredSeq: last.seq,
      drawnOn: [...drawnBefore, ...fresh.map((message) => message.seq)],
    };
  }

  /**
   * Stores a prepared summary in the caller's transaction, if the dialogue's summary is still
   * the one it was built on. With `complete`, no message may have been added since the read.
   */
  async function apply(
    tx: Executor,
    ctx: ProjectContext,
    id: string,
    prepared: Prepared,
    complete: boolean,
  ): Promise<dialogueRepo.DialogueRow> {
    // The row lock also holds back new messages until commit (D35).
    const row = await dialogueRepo.lockDialogue(tx, ctx.projectId, id);
    if (!row) throw dialogueNotFound(id);
    if (!sameSummary(row.summary, prepared.previous)) throw new StaleSummary();
    if (complete && (await repo.hasMessagesAfter(tx, ctx.projectId, id, prepared.coveredSeq))) {
      throw new StaleSummary();
    }
    const { summary } = prepared;
    if (summary === null) return row;
    // Deletions lock the dialogue row too: under this lock, the messages read are all there or not.
    if (
      (await repo.countMessagesBySeq(tx, ctx.projectId, id, prepared.drawnOn)) !== prepared.drawnOn.length
    ) {
      throw new StaleSummary(false);
    }
    const updated = await dialogueRepo.updateDialogue(tx, ctx.projectId, id, {
      summary,
      summaryCoversSeq: prepared.coveredSeq,
      // D41: the summary is part of the dialogue's searchable text...
      searchText: dialogueSearchText({ label: row.label, tags: row.tags, summary }),
    });
    // ...and of its embedding, made again after the write (D40).
    await embeddingQueue.enqueue(tx, { projectId: ctx.projectId, objectType: 'dialogue', objectId: id });
    // D64: a new summary is a `dialogue.compacted`; a compaction with nothing new writes none.
    await events.record(tx, ctx.projectId, [
      dialogueEvent('dialogue.compacted', toDialogueRecord(updated, ctx.settings)),
    ]);
    return updated;
  }

  /** Prepares and applies until a round is not overtaken by a concurrent change. */
  async function inRounds<T>(
    ctx: ProjectContext,
    id: string,
    run: (prepared: Prepared) => Promise<T>,
  ): Promise<T> {
    let carried: Prepared | undefined;
    for (let round = 1; ; round++) {
      const prepared = await prepare(ctx, id, carried);
      carried = prepared;
      try {
        return await run(prepared);
      } catch (error) {
        if (!(error instanceof StaleSummary)) throw error;
        if (!error.reusable) carried = undefined;
        if (round === ROUNDS) {
          throw new AppError(
            'RESOURCE_CONFLICT',
            `Dialogue ${id} kept changing while it was summarized; retry`,
          );
        }
      }
    }
  }

  return {
    /**
     * The `compact` action (D22): stores on the dialogue a summary of all its messages and
     * returns the dialogue. Messages are never changed; works on ended and immutable dialogues
     * (D25). A dialogue without messages has nothing to summarize and keeps `summary: null`.
     */
    compact<T>(ctx: ProjectContext, id: string, write: WriteRunner<T>): Promise<T> {
      return inRounds(ctx, id, (prepared) =>
        write(
          async (tx): Promise<DialogueRecord> =>
            toDialogueRecord(await apply(tx, ctx, id, prepared, false), ctx.settings),
        ),
      );
    },

    /**
     * The `continue` action (D21): in one write transaction, stores the summary of every message,
     * ends the dialogue and creates its continuation (same namespace and tags,
     * `metadata.continuedFrom`, the summary as first `system` message). A message that arrives
     * while the summary is written makes the round start over, so nothing is left behind.
     */
    continueDialogue<T>(ctx: ProjectContext, id: string, write: WriteRunner<T>): Promise<T> {
      return inRounds(ctx, id, (prepared) =>
        write(async (tx): Promise<DialogueWithMessages> => {
          const row = await apply(tx, ctx, id, prepared, true);
          await dialogues.end(tx, ctx, id);
          const summary = row.summary;
          const continuation = await dialogues.create(tx, ctx, {
            namespace: row.namespace ?? undefined,
            tags: row.tags,
            metadata: { continuedFrom: id },
            messages: summary?.text
              ? [
                  {
                    field: 'message',
                    input: {
                      role: 'system',
                      content: new RawJson(JSON.stringify(summary.text)),
                      metadata: { summaryOf: id, model: summary.model, upToMessageId: summary.upToMessageId },
                    },
                  },
                ]
              : [],
          });
          // D64: last, the event tying the two together, in the continued dialogue's feed: its
          // object is the continuation, shown as this action returns it (without messages).
          await events.record(tx, ctx.projectId, [
            { ...dialogueEvent('dialogue.continued', continuation), dialogueId: id },
          ]);
          return continuation;
        }),
      );
    },
  };
}

export type CompactionService = ReturnType<typeof createCompactionService>;
