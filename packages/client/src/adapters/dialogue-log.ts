import { type Message, type Parley, ParleyError, type components } from '../index.js';

// What the framework adapters share: a dialogue used as an append-only log under an id the
// application chose. The dialogue is made by the first write under that id (client-given ids), so
// an application can use its own chat, thread or session ids without creating anything first.

export type NewMessage = components['schemas']['CreateMessageRequest'];

/** POST /messages takes at most this many messages; a dialogue's creation at most 25 (D16, D31). */
const BATCH = 100;
const AT_CREATION = 25;

export interface DialogueRef {
  client: Parley;
  dialogueId: string;
  /** The Parley namespace the dialogue lives in, if any. */
  namespace?: string;
}

const isCode = (error: unknown, code: string) => error instanceof ParleyError && error.code === code;

/** Appends messages in order, making the dialogue first when none has this id yet. */
export async function appendMessages(ref: DialogueRef, messages: NewMessage[]): Promise<void> {
  const { client, dialogueId, namespace } = ref;
  let rest = messages;
  let taken = false;
  while (rest.length > 0) {
    const batch = rest.slice(0, BATCH);
    try {
      await client.messages.createMany({ dialogueId, namespace, messages: batch });
      rest = rest.slice(batch.length);
    } catch (error) {
      // Not found although the id is taken: it is a dialogue of another namespace (D34).
      if (!isCode(error, 'DIALOGUE_NOT_FOUND') || taken) throw error;
      const first = rest.slice(0, AT_CREATION);
      try {
        await client.dialogues.create({ id: dialogueId, namespace, messages: first });
        rest = rest.slice(first.length);
      } catch (raced) {
        // Another writer made it between our two calls: append to theirs.
        if (!isCode(raced, 'DUPLICATE_ID')) throw raced;
        taken = true;
      }
    }
  }
}

/** Every message of the dialogue, oldest first; none when it does not exist (yet). */
export async function readMessages(ref: DialogueRef): Promise<Message[]> {
  const all: Message[] = [];
  try {
    for await (const message of ref.client.messages.list({
      dialogueId: ref.dialogueId,
      namespace: ref.namespace,
      limit: 200,
    })) {
      all.push(message);
    }
  } catch (error) {
    if (!isCode(error, 'DIALOGUE_NOT_FOUND')) throw error;
  }
  return all;
}

/** The newest `count` messages, oldest first. */
export async function readNewest(ref: DialogueRef, count: number): Promise<Message[]> {
  try {
    const page = await ref.client.messages.page({
      dialogueId: ref.dialogueId,
      namespace: ref.namespace,
      order: 'desc',
      limit: count,
    });
    return page.items.reverse();
  } catch (error) {
    if (isCode(error, 'DIALOGUE_NOT_FOUND')) return [];
    throw error;
  }
}

export async function deleteMessage(ref: DialogueRef, messageId: string): Promise<void> {
  await ref.client.messages.deleteFromDialogue(ref.dialogueId, messageId, { namespace: ref.namespace });
}

/** Deletes the dialogue with all its messages; the next write under its id starts a new one. */
export async function deleteDialogue(ref: DialogueRef): Promise<void> {
  try {
    await ref.client.dialogues.delete(ref.dialogueId, { namespace: ref.namespace });
  } catch (error) {
    if (!isCode(error, 'DIALOGUE_NOT_FOUND')) throw error;
  }
}
