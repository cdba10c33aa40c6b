import type { DatabaseHandle, Executor } from '../../db/client.js';
import type { WriteTx } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import type { EventReservation } from './insert-sql.js';
import type { NewEvent } from './records.js';
import {
  clearSummariesInEvents,
  eraseDialogueEvents,
  eraseMemoryEvents,
  eraseMessageEvents,
  insertEvents,
  keepMessageData,
  lockEventData,
  numberEventsInTransaction,
} from './repository.js';

// D63, D70: what a writing service is handed. Every function runs in the caller's transaction,
// so that an event commits or rolls back with its change, and an erasure with its deletion.

export interface EventOutbox {
  /** Writes the change's events, in the order given, and marks the write's scope as one that recorded events. */
  record(tx: WriteTx, projectId: string, events: NewEvent[]): Promise<void>;
  /**
   * Ids for `count` `message.created` events that a statement of the caller writes itself in
   * `tx` (the message append, through `events/insert-sql.ts`), in order, and whether it numbers
   * them (D191); the write's scope is marked with them. Undefined when writes record no events
   * (the events benchmark's baseline).
   */
  reserve(tx: WriteTx, count: number): EventReservation | undefined;
  /**
   * D191: run last in a transaction that recorded events of the project. Where writes number
   * their own events (the embedded store), numbers them now and answers their types, one per
   * event, to be announced after the commit (a write's scope takes them itself). Undefined
   * where the sequencer numbers them after the commit.
   */
  numberBeforeCommit(tx: WriteTx, projectId: string): Promise<string[] | undefined>;
  /**
   * D63: before a message changes, its `message.created` event (which reads its data from the
   * message row until then) gets `message`, the message as it is, written in.
   */
  keepMessageData(
    tx: Executor,
    projectId: string,
    dialogueId: string,
    messageId: string,
    message: unknown,
  ): Promise<void>;
  /** D70: empties the events of a deleted dialogue, its messages included. */
  eraseDialogue(tx: Executor, projectId: string, dialogueId: string): Promise<void>;
  eraseMessage(tx: Executor, projectId: string, dialogueId: string, messageId: string): Promise<void>;
  eraseMemory(tx: Executor, projectId: string, memoryId: string): Promise<void>;
  /** D70: the dialogue's summary drew on a deleted message: earlier events lose theirs. */
  clearSummaries(tx: Executor, projectId: string, dialogueId: string): Promise<void>;
  /**
   * D70: the current data of events about to be copied (webhook deliveries), locked against a
   * concurrent erasure until the copy commits, so that no copy escapes it.
   */
  lockForCopy(tx: Executor, projectId: string, eventIds: string[]): Promise<Map<string, string>>;
}

/** Marks the write's scope (D63): its events are left to the sequencer, unless numbered already. */
function markRecorded(tx: WriteTx): void {
  if (tx.writeScope) tx.writeScope.eventsToNumber = true;
}

export interface EventOutboxOptions {
  /**
   * D191: a write numbers its own events, before its commit or, a standalone statement (D174),
   * as it inserts them. Only on a store that runs one write at a time (the embedded one), where
   * that is commit order; on PostgreSQL the counter row would make every writer of a project
   * wait for the one before it to commit.
   */
  numberInWrite: boolean;
}

export function createEventOutbox({ numberInWrite }: EventOutboxOptions): EventOutbox {
  return {
    async record(tx, projectId, events) {
      if (events.length === 0) return;
      await insertEvents(tx, projectId, events);
      markRecorded(tx);
    },
    reserve(tx, count) {
      const ids = Array.from({ length: count }, () => newId('evt'));
      // In a transaction they are numbered with the rest before its commit, in the order of
      // their ids: an event recorded later may have been made first (a dialogue's, D64).
      const scope = tx.writeScope;
      if (numberInWrite && scope?.standalone) {
        scope.eventsNumbered.push(...ids.map(() => 'message.created'));
        return { ids, numberAtInsert: true };
      }
      markRecorded(tx);
      return { ids, numberAtInsert: false };
    },
    async numberBeforeCommit(tx, projectId) {
      if (!numberInWrite) return undefined;
      const scope = tx.writeScope;
      if (scope && !scope.eventsToNumber) return [];
      const types = await numberEventsInTransaction(tx, projectId);
      if (scope) {
        scope.eventsNumbered.push(...types);
        scope.eventsToNumber = false;
      }
      return types;
    },
    keepMessageData,
    eraseDialogue: eraseDialogueEvents,
    eraseMessage: eraseMessageEvents,
    eraseMemory: eraseMemoryEvents,
    clearSummaries: clearSummariesInEvents,
    lockForCopy: lockEventData,
  };
}

/** D191: the outbox for the store: on the embedded one, writes number their own events. */
export const eventOutboxFor = (database: Pick<DatabaseHandle, 'kind'>): EventOutbox =>
  createEventOutbox({ numberInWrite: database.kind === 'pglite' });
