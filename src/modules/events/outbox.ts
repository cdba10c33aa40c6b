import type { Executor } from '../../db/client.js';
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
  /** Writes the change's events, in the order given. */
  record(tx: Executor, projectId: string, events: NewEvent[]): Promise<void>;
  /**
   * Ids for `count` events that a statement of the caller writes itself in `tx` (the message
   * append, through `insertEventsFrom`), in order; the transaction counts as one that recorded
   * events. Undefined when writes record no events (the events benchmark's baseline).
   */
  reserve(tx: Executor, count: number): string[] | undefined;
  /** Whether this transaction recorded events: only then are there events to number after it. */
  recordedIn(tx: Executor): boolean;
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

/** Transactions that wrote events (held weakly: a finished transaction's entry goes with it). */
const recording = new WeakSet<Executor>();

export const eventOutbox: EventOutbox = {
  async record(tx, projectId, events) {
    if (events.length === 0) return;
    await insertEvents(tx, projectId, events);
    recording.add(tx);
  },
  reserve(tx, count) {
    recording.add(tx);
    return Array.from({ length: count }, () => newId('evt'));
  },
  recordedIn: (tx) => recording.has(tx),
  keepMessageData,
  eraseDialogue: eraseDialogueEvents,
  eraseMessage: eraseMessageEvents,
  eraseMemory: eraseMemoryEvents,
  clearSummaries: clearSummariesInEvents,
  lockForCopy: lockEventData,
};
