import type { Database, Executor } from '../../db/client.js';
import { type Applied, Overtaken, type StagedWrite } from '../../db/unit-of-work.js';
import type { DialogueSummary } from '../../db/schema.js';
import { AppError, isAppError, messageNotFound } from '../../core/errors.js';
import { RawJson } from '../../core/raw-json.js';
import type { ProjectContext } from '../../core/context.js';
import { newId } from '../../lib/ids.js';
import type { Summarizer } from '../../summarizers/summarizer.js';
import { countTokens } from '../../lib/tokens.js';
import type { EmbeddingQueue } from '../embeddings/queue.js';
import type { EventOutbox } from '../events/outbox.js';
import { dialogueEvent } from '../events/records.js';
import * as repo from './compaction-repository.js';
import type { MessageText } from './compaction-repository.js';
import { type DialogueRecord, type DialogueWithMessages, toDialogueRecord } from '../dialogues/records.js';
import type { DialogueScope } from '../dialogues/scope.js';
import type { DialogueService } from '../dialogues/service.js';
import type { DialogueRow, DialogueSummarySlot } from '../dialogues/summary-slot.js';
import { type SummaryRecord, toSummaryRecord } from './records.js';
import * as summaryRepo from './repository.js';
import type { MessageKey, SummaryRow } from './repository.js';

// D21, D22: compaction and continuation. The model works outside any transaction (no network call
// holds one open): each action is a staged write (src/db/unit-of-work.ts), whose `prepare` reads
// the messages and summarizes them, and whose `apply` stores the summary in one short transaction,
// but only if the dialogue's summary is still the one the new summary was built on. Otherwise the
// round is redone on top of the newer summary, so concurrent compactions leave one consistent
// summary and never lose the messages another compaction covered.
// D56: `POST /summary` takes the same path; every summary stored is also kept as a summary record
// (the dialogue's history of summaries), and the dialogue's `summary` is a copy of the latest.

/** Rounds of "summarize, then store if nothing changed" before giving up with a conflict. */
const ROUNDS = 4;

export interface CompactionDeps {
  /** The primary: a summary is built on what the write that stores it will find. */
  db: Database;
  summarizer: Summarizer;
  /** Continuation ends the dialogue and creates the next one (D21). */
  dialogues: Pick<DialogueService, 'end' | 'create'>;
  /** The dialogue's summary slot: the dialogues table is the dialogues module's own. */
  summarySlot: DialogueSummarySlot;
  dialogueScope: Pick<DialogueScope, 'findGivenNamespace'>;
  embeddingQueue: Pick<EmbeddingQueue, 'enqueue'>;
  outbox: Pick<EventOutbox, 'record'>;
}

/** A client-given summary id was taken by a concurrent request: its write is undone. */
class SummaryIdTaken extends Error {}

/** What a summary covers, as its record states it (D56). */
interface Coverage {
  messageCount: number;
  /** Messages whose text the summary drew on. */
  summarizedCount: number;
  /** Messages it covers without drawing on them: they had no text. */
  skippedCount: number;
  fromCreated: Date | null;
  toCreated: Date | null;
}

const NOTHING: Coverage = {
  messageCount: 0,
  summarizedCount: 0,
  skippedCount: 0,
  fromCreated: null,
  toCreated: null,
};

const hasText = (message: MessageText): boolean => message.text.trim() !== '';

/** `coverage` widened by `messages`. */
function widen(coverage: Coverage, messages: MessageText[]): Coverage {
  const times = messages.map((message) => message.created.getTime());
  if (coverage.fromCreated) times.push(coverage.fromCreated.getTime());
  if (coverage.toCreated) times.push(coverage.toCreated.getTime());
  const drawn = messages.filter(hasText).length;
  return {
    messageCount: coverage.messageCount + messages.length,
    summarizedCount: coverage.summarizedCount + drawn,
    skippedCount: coverage.skippedCount + messages.length - drawn,
    fromCreated: times.length > 0 ? new Date(Math.min(...times)) : null,
    toCreated: times.length > 0 ? new Date(Math.max(...times)) : null,
  };
}

/** A summary made outside any transaction, with what it was built on. */
interface Prepared {
  /** The dialogue's summary when the messages were read. */
  previous: DialogueSummary | null;
  /**
   * The summary to store on the dialogue; null when there is none to store: the previous one
   * covers every message already (compaction), or nothing had any text.
   */
  summary: DialogueSummary | null;
  coverage: Coverage;
  /** Insertion sequence of the last message the resulting summary covers (0: none). */
  coveredSeq: number;
  /**
   * Insertion sequences of the messages read for the new summary. D73: a summary may not be
   * stored if one of them was deleted meanwhile (its words would outlive it).
   */
  drawnOn: number[];
  /** D56: a summary of the messages between two (bounds left out are open), built on no other summary. */
  range?: { start?: MessageKey; end?: MessageKey };
  /** D56: why the summarizer failed, when a failure is to be stored rather than thrown. */
  failure?: string;
}

/** What `POST /summary` stores beyond the summary itself (D56). */
interface RecordFields {
  id?: string;
  tags: string[];
  metadata: Record<string, unknown>;
}

export interface SummarizeInput extends Partial<RecordFields> {
  dialogueId: string;
  namespace?: string;
  startId?: string;
  endId?: string;
}

const sameSummary = (a: DialogueSummary | null, b: DialogueSummary | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.created === b.created &&
    a.upToMessageId === b.upToMessageId &&
    a.messageCount === b.messageCount &&
    a.model === b.model);

const compareKeys = (a: MessageKey, b: MessageKey): number =>
  a.created.getTime() - b.created.getTime() || a.seq - b.seq;

/** The summarizer's own failures (502, 504), which `POST /summary` answers as a failed summary (D56). */
const isSummarizerFailure = (error: unknown): error is AppError =>
  isAppError(error) && (error.code === 'UPSTREAM_ERROR' || error.code === 'UPSTREAM_TIMEOUT');

export function createCompactionService({
  db,
  summarizer,
  dialogues,
  summarySlot,
  dialogueScope,
  embeddingQueue,
  outbox,
}: CompactionDeps) {
  /**
   * The summary of `messages`, built on `basis`, and what it covers. The summarizer is called only
   * when there is text to summarize.
   */
  async function draft(
    basis: DialogueSummary | null,
    basisCoverage: Coverage,
    messages: MessageText[],
    basisSeq: number,
  ): Promise<Omit<Prepared, 'previous' | 'drawnOn'>> {
    const coverage = widen(basisCoverage, messages);
    // Coverage follows insertion order, so that a message stored later with an earlier
    // `created` is still taken in by the next compaction.
    const last = messages.reduce<MessageText | undefined>((a, b) => (a && a.seq > b.seq ? a : b), undefined);
    const drawn = messages.filter(hasText);
    if (!basis && drawn.length === 0) return { summary: null, coverage, coveredSeq: last?.seq ?? basisSeq };
    const text = await summarizer.summarize({ previous: basis?.text ?? null, messages: drawn });
    return {
      summary:
        text.trim() === ''
          ? null
          : {
              text,
              model: summarizer.model,
              messageCount: coverage.messageCount,
              upToMessageId: last?.id ?? null,
              created: new Date().toISOString(),
            },
      coverage,
      coveredSeq: last?.seq ?? basisSeq,
    };
  }

  /**
   * Reads what the stored summary lacks and summarizes it, outside any transaction. `carried` is
   * the previous round's summary, which was not stored: when the dialogue's summary is still the
   * one it was built on, this round builds on it and reads only the messages that came since.
   * With `renew`, a summary is made even when the stored one covers every message (a copy of it).
   */
  async function prepare(
    ctx: ProjectContext,
    id: string,
    carried?: Prepared,
    renew = false,
  ): Promise<Prepared> {
    const row = await summarySlot.find(db, ctx, id);
    const previous = row.summary;
    let basis: DialogueSummary | null = null;
    let basisCoverage = NOTHING;
    let upTo = 0;
    let drawnBefore: number[] = [];
    if (carried?.summary && sameSummary(previous, carried.previous)) {
      basis = carried.summary;
      basisCoverage = carried.coverage;
      upTo = carried.coveredSeq;
      drawnBefore = carried.drawnOn;
    } else if (previous && row.summaryCoversSeq !== null && row.summaryId !== null) {
      // Incremental: the stored summary and the messages stored after the last one it covers.
      // A summary of unknown reach (made before coverage was recorded), of a range, or without
      // its record (made before records were kept, D56) is made again from all.
      const record = await summaryRepo.findSummary(db, ctx.projectId, row.summaryId);
      if (record) {
        basis = previous;
        const { messageCount, summarizedCount, skippedCount, fromCreated, toCreated } = record;
        basisCoverage = { messageCount, summarizedCount, skippedCount, fromCreated, toCreated };
        upTo = row.summaryCoversSeq;
      }
    }
    const fresh = await repo.messagesAfter(db, ctx.projectId, id, upTo);
    if (fresh.length === 0 && !(renew && basis)) {
      const summary = basis === previous ? null : basis;
      return { previous, summary, coverage: basisCoverage, coveredSeq: upTo, drawnOn: drawnBefore };
    }
    if (fresh.length === 0) {
      // D56: every call stores a summary: with nothing new, the stored one again.
      const summary = { ...basis!, created: new Date().toISOString() };
      return { previous, summary, coverage: basisCoverage, coveredSeq: upTo, drawnOn: drawnBefore };
    }
    const drafted = await draft(basis, basisCoverage, fresh, upTo);
    return { previous, ...drafted, drawnOn: [...drawnBefore, ...fresh.map((message) => message.seq)] };
  }

  /** D56: a summary of the messages from `startId` to `endId` (either may be left out), from scratch. */
  async function prepareRange(ctx: ProjectContext, input: SummarizeInput): Promise<Prepared> {
    const { dialogueId } = input;
    const row = await summarySlot.find(db, ctx, dialogueId);
    const keyOf = async (messageId: string | undefined) => {
      if (messageId === undefined) return undefined;
      const key = await repo.findMessageKey(db, ctx.projectId, dialogueId, messageId);
      if (!key) throw messageNotFound(messageId, dialogueId);
      return key;
    };
    const start = await keyOf(input.startId);
    const end = await keyOf(input.endId);
    if (start && end && compareKeys(start, end) > 0) {
      const message = 'comes after endId in the dialogue';
      throw new AppError('INVALID_PARAMETER', `startId: ${message}`, [
        { field: 'startId', code: 'INVALID_PARAMETER', message },
      ]);
    }
    const messages = await repo.messagesBetween(db, ctx.projectId, dialogueId, start, end);
    const drafted = await draft(null, NOTHING, messages, 0);
    return {
      previous: row.summary,
      ...drafted,
      drawnOn: messages.map((message) => message.seq),
      range: { start, end },
    };
  }

  /**
   * Stores a prepared summary in the caller's transaction, if the dialogue's summary is still
   * the one it was built on (a range is built on none). With `complete`, no message may have been
   * added since the read. With `record`, a summary record is stored even when nothing goes on the
   * dialogue (D56: every `POST /summary` stores one); compaction stores one with each summary.
   */
  async function store(
    tx: Executor,
    ctx: ProjectContext,
    id: string,
    prepared: Prepared,
    options: { complete: boolean; record?: RecordFields },
  ): Promise<{ row: DialogueRow; record?: SummaryRow }> {
    // The row lock also holds back new messages until commit (D35).
    const row = await summarySlot.lock(tx, ctx, id);
    const { summary, failure } = prepared;
    // A range, or a failure, goes on no earlier summary.
    if (!prepared.range && failure === undefined && !sameSummary(row.summary, prepared.previous)) {
      throw new Overtaken();
    }
    if (options.complete && (await repo.hasMessagesAfter(tx, ctx.projectId, id, prepared.coveredSeq))) {
      throw new Overtaken();
    }
    if (summary === null && !options.record) return { row };
    // Deletions lock the dialogue row too: under this lock, the messages read are all there or not.
    if (
      failure === undefined &&
      (await repo.countMessagesBySeq(tx, ctx.projectId, id, prepared.drawnOn)) !== prepared.drawnOn.length
    ) {
      throw new Overtaken(false);
    }
    const stored = failure === undefined ? summary : null;
    const record = await summaryRepo.insertSummary(tx, {
      projectId: ctx.projectId,
      id: options.record?.id ?? newId('sum'),
      dialogueId: id,
      namespace: row.namespace,
      status: failure === undefined ? 'completed' : 'failed',
      content: stored?.text ?? null,
      contentTokenCount: stored ? countTokens(stored.text) : null,
      provider: summarizer.provider,
      model: summarizer.model,
      ...prepared.coverage,
      error: failure ?? null,
      tags: options.record?.tags ?? [],
      metadata: options.record?.metadata ?? {},
      coversSeq: stored ? prepared.coveredSeq : null,
      rangeStartCreated: prepared.range?.start?.created ?? null,
      rangeStartSeq: prepared.range?.start?.seq ?? null,
      rangeEndCreated: prepared.range?.end?.created ?? null,
      rangeEndSeq: prepared.range?.end?.seq ?? null,
    });
    if (!record) throw new SummaryIdTaken();
    if (stored === null) return { row, record };
    const updated = await summarySlot.set(tx, ctx, row, stored, {
      // A range's summary covers no prefix of the dialogue: compaction does not build on it.
      coversSeq: prepared.range ? null : prepared.coveredSeq,
      summaryId: record.id,
    });
    // D41: the summary is part of the dialogue's embedding too, made again after the write (D40).
    await embeddingQueue.enqueue(tx, { projectId: ctx.projectId, objectType: 'dialogue', objectId: id });
    // D64: a new summary on the dialogue is a `dialogue.compacted`, whether compaction, continuation
    // or POST /summary made it; a round with nothing new writes none.
    await outbox.record(tx, ctx.projectId, [
      dialogueEvent('dialogue.compacted', toDialogueRecord(updated, ctx.settings)),
    ]);
    return { row: updated, record };
  }

  /** D56: a failure of the summarizer becomes a failed summary; nothing goes on the dialogue. */
  async function orFailed(ctx: ProjectContext, input: SummarizeInput, work: () => Promise<Prepared>) {
    try {
      return await work();
    } catch (error) {
      if (!isSummarizerFailure(error)) throw error;
      const row = await summarySlot.find(db, ctx, input.dialogueId);
      return {
        previous: row.summary,
        summary: null,
        coverage: NOTHING,
        coveredSeq: 0,
        drawnOn: [],
        failure: error.message,
      } satisfies Prepared;
    }
  }

  /** A staged write that rounds of `prepare` and `store` make (D22). */
  function staged<R>(
    id: string,
    prepareRound: (carried: Prepared | undefined) => Promise<Prepared>,
    apply: (tx: Executor, prepared: Prepared) => Promise<Applied<R>>,
  ): StagedWrite<Prepared, R> {
    return {
      prepare: async (carried) => ({ kind: 'prepared', prepared: await prepareRound(carried) }),
      apply,
      rounds: ROUNDS,
      overtakenTooOften: () =>
        new AppError('RESOURCE_CONFLICT', `Dialogue ${id} kept changing while it was summarized; retry`),
    };
  }

  /** D56: the summary stored under the client-given `id`, if it is the dialogue's. */
  async function storedUnder(
    db: Executor,
    ctx: ProjectContext,
    input: SummarizeInput,
  ): Promise<SummaryRow | undefined> {
    if (input.id === undefined) return undefined;
    const row = await summaryRepo.findSummary(db, ctx.projectId, input.id);
    if (row && row.dialogueId !== input.dialogueId) {
      throw new AppError('DUPLICATE_ID', `Summary id ${input.id} is taken by another dialogue's summary`, [
        { field: 'id', code: 'DUPLICATE_ID', message: "taken by another dialogue's summary" },
      ]);
    }
    return row;
  }

  return {
    /**
     * The `compact` action (D22): stores on the dialogue a summary of all its messages and
     * returns the dialogue. Messages are never changed; works on ended and immutable dialogues
     * (D25). A dialogue without messages has nothing to summarize and keeps `summary: null`.
     * D56: each summary it stores is also kept as a summary record.
     */
    compact(ctx: ProjectContext, id: string): StagedWrite<Prepared, DialogueRecord> {
      return staged(
        id,
        (carried) => prepare(ctx, id, carried),
        async (tx, prepared) => {
          const { row } = await store(tx, ctx, id, prepared, { complete: false });
          return { kind: 'created', result: toDialogueRecord(row, ctx.settings) };
        },
      );
    },

    /**
     * The `continue` action (D21): in one write transaction, stores the summary of every message,
     * ends the dialogue and creates its continuation (same namespace and tags,
     * `metadata.continuedFrom`, the summary as first `system` message). A message that arrives
     * while the summary is written makes the round start over, so nothing is left behind.
     */
    continueDialogue(ctx: ProjectContext, id: string): StagedWrite<Prepared, DialogueWithMessages> {
      return staged(
        id,
        (carried) => prepare(ctx, id, carried),
        async (tx, prepared) => {
          const { row } = await store(tx, ctx, id, prepared, { complete: true });
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
                      metadata: {
                        summaryOf: id,
                        model: summary.model,
                        upToMessageId: summary.upToMessageId,
                      },
                    },
                  },
                ]
              : [],
          });
          // D64: last, the event tying the two together, in the continued dialogue's feed: its
          // object is the continuation, shown as this action returns it (without messages).
          await outbox.record(tx, ctx.projectId, [
            { ...dialogueEvent('dialogue.continued', continuation), dialogueId: id },
          ]);
          return { kind: 'created', result: continuation };
        },
      );
    },

    /**
     * `POST /summary` (D56): stores a new summary record of the dialogue (of the range between
     * `startId` and `endId` when given) and makes it the dialogue's summary (`created`). A summary
     * with the client-given `id` already stored is the answer (`existing`), found before anything
     * is summarized, or, when a concurrent request stored it first, in place of the write.
     */
    summarize(ctx: ProjectContext, input: SummarizeInput): StagedWrite<Prepared, SummaryRecord> {
      const ranged = input.startId !== undefined || input.endId !== undefined;
      const record: RecordFields = { id: input.id, tags: input.tags ?? [], metadata: input.metadata ?? {} };
      const { dialogueId } = input;
      return {
        async prepare(carried, round) {
          if (round === 1) {
            await dialogueScope.findGivenNamespace(db, ctx, { id: dialogueId, namespace: input.namespace });
            const earlier = await storedUnder(db, ctx, input);
            if (earlier) return { kind: 'existing', result: toSummaryRecord(earlier) };
          }
          const prepared = await orFailed(ctx, input, () =>
            ranged ? prepareRange(ctx, input) : prepare(ctx, dialogueId, carried, true),
          );
          return { kind: 'prepared', prepared };
        },
        async apply(tx, prepared) {
          try {
            const stored = await store(tx, ctx, dialogueId, prepared, { complete: false, record });
            return { kind: 'created', result: toSummaryRecord(stored.record!) };
          } catch (error) {
            if (!(error instanceof SummaryIdTaken)) throw error;
            // A concurrent request stored a summary under this id first (the insert that found it
            // taken waited for its commit, so it is seen now): answer with it.
            const winner = await storedUnder(tx, ctx, input);
            if (winner) return { kind: 'existing', result: toSummaryRecord(winner) };
            throw new AppError(
              'RESOURCE_CONFLICT',
              `Summary ${input.id} was stored and erased meanwhile; retry`,
            );
          }
        },
        rounds: ROUNDS,
        overtakenTooOften: () =>
          new AppError(
            'RESOURCE_CONFLICT',
            `Dialogue ${dialogueId} kept changing while it was summarized; retry`,
          ),
      };
    },
  };
}

export type CompactionService = ReturnType<typeof createCompactionService>;
