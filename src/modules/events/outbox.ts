import type { Executor } from '../../db/client.js';
import type { WriteTx } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import type { NewEvent } from './records.js';
import {
  clearSummariesInEvents,
  eraseDialogueEvents,
  eraseMemoryEvents,
  eraseMessageEvents,
  insertEvents,
  keepMessageData,
  lockEventData,
} from './repository.js';

// D63, D70: what a writing service is handed. Every function runs in the caller's transaction,
// so that an event commits or rolls back with its change, and an erasure with its deletion.

export interface EventOutbox {
  /** Writes the change's events, in the order given, and marks the write's scope as one that recorded events. */
  record(tx: WriteTx, projectId: string, events: NewEvent[]): Promise<void>;
  /**
   * Ids for `count` events that a statement of the caller writes itself in `tx` (the message
   * append, through `events/insert-sql.ts`), in order; the write's scope is marked as one that
   * recorded events. Undefined when writes record no events (the events benchmark's baseline).
   */
  reserve(tx: WriteTx, count: number): string[] | undefined;
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

/** Only then does `runWrite` have the sequencer number events after the commit. */
function markRecorded(tx: WriteTx): void {
  if (tx.writeScope) tx.writeScope.eventsRecorded = true;
}

export const eventOutbox: EventOutbox = {
  async record(tx, projectId, events) {
    if (events.length === 0) return;
    await insertEvents(tx, projectId, events);
    markRecorded(tx);
  },
  reserve(tx, count) {
    markRecorded(tx);
    return Array.from({ length: count }, () => newId('evt'));
  },
  keepMessageData,
  eraseDialogue: eraseDialogueEvents,
  eraseMessage: eraseMessageEvents,
  eraseMemory: eraseMemoryEvents,
  clearSummaries: clearSummariesInEvents,
  lockForCopy: lockEventData,
};
