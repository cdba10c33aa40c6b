import { RawJson } from '../../core/raw-json.js';

// The event record of D63 and what a change hands the outbox (D64).

/** D64: every type a change of a project's data emits. */
export const EVENT_TYPES = [
  'dialogue.created',
  'dialogue.updated',
  'dialogue.ended',
  'dialogue.deleted',
  'dialogue.compacted',
  'dialogue.continued',
  'message.created',
  'message.updated',
  'message.deleted',
  'memory.created',
  'memory.updated',
  'memory.deleted',
  // D165: the receipt of a namespace's erasure.
  'namespace.erased',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** An event as a change writes it, before it is numbered (D63). */
export interface NewEvent {
  /** Given when the id was taken before the change (it orders the events of a transaction); else made at the write. */
  id?: string;
  type: EventType;
  namespace: string | null;
  /** The dialogue the event belongs to: a dialogue's own id, a message's dialogue; null for memories. */
  dialogueId: string | null;
  objectId: string;
  /** The object as the REST API returns it after the whole change (RawJson inside is kept verbatim, D28). */
  data: unknown;
}

/** D63: the record the feed, the stream, MCP and webhooks give out. */
export interface EventRecord {
  id: string;
  seq: number;
  type: string;
  created: string;
  projectId: string;
  namespace: string | null;
  dialogueId: string | null;
  objectId: string;
  /** The stored JSON text, written out verbatim. */
  data: RawJson;
}

/**
 * D168: the data of an event whose namespace is being erased, as reads show it from the erasure's
 * request on: what its deletion will leave (D70), `{id, dialogueId?, deleted: true}`.
 */
export function erasingEventData(event: {
  type: string;
  objectId: string;
  dialogueId: string | null;
}): string {
  return JSON.stringify(
    event.dialogueId !== null && event.dialogueId !== event.objectId
      ? { id: event.objectId, dialogueId: event.dialogueId, deleted: true }
      : { id: event.objectId, deleted: true },
  );
}

/** D63: a dialogue event carries the dialogue without its `messages` list. */
export function dialogueEvent(
  type: EventType,
  dialogue: { id: string; namespace: string | null; messages?: unknown },
): NewEvent {
  const { messages: _messages, ...data } = dialogue;
  return { type, namespace: dialogue.namespace, dialogueId: dialogue.id, objectId: dialogue.id, data };
}

export const messageEvent = (
  type: EventType,
  message: { id: string; dialogueId: string; namespace: string | null },
): NewEvent => ({
  type,
  namespace: message.namespace,
  dialogueId: message.dialogueId,
  objectId: message.id,
  data: message,
});

export const memoryEvent = (type: EventType, memory: { id: string; namespace: string | null }): NewEvent => ({
  type,
  namespace: memory.namespace,
  dialogueId: null,
  objectId: memory.id,
  data: memory,
});

/**
 * D153: why a deletion that no request asked for happened: a retention rule of the project, or
 * the object's own `expiresAt`. A client's delete has no reason.
 */
export type DeletionReason = 'retention' | 'expired';

/**
 * D63: a deletion carries `{id, dialogueId?, deleted: true}` (dialogueId for a message), and
 * `reason` when no request asked for it (D153).
 */
export function deletionEvent(
  type: 'dialogue.deleted' | 'message.deleted' | 'memory.deleted',
  object: { id: string; namespace: string | null; dialogueId?: string },
  reason?: DeletionReason,
): NewEvent {
  const base =
    type === 'message.deleted'
      ? { id: object.id, dialogueId: object.dialogueId, deleted: true }
      : { id: object.id, deleted: true };
  const data = reason === undefined ? base : { ...base, reason };
  return {
    type,
    namespace: object.namespace,
    dialogueId: type === 'memory.deleted' ? null : (object.dialogueId ?? object.id),
    objectId: object.id,
    data,
  };
}

export interface EventRow {
  projectId: string;
  id: string;
  seq: number | null;
  type: string;
  namespace: string | null;
  dialogueId: string | null;
  objectId: string;
  data: string;
  created: Date;
}

export const toEventRecord = (row: EventRow): EventRecord => ({
  id: row.id,
  seq: row.seq!,
  type: row.type,
  created: row.created.toISOString(),
  projectId: row.projectId,
  namespace: row.namespace,
  dialogueId: row.dialogueId,
  objectId: row.objectId,
  data: new RawJson(row.data),
});
