import type { UIMessage } from 'ai';
import {
  type DialogueRef,
  type NewMessage,
  appendMessages,
  deleteMessage,
  readMessages,
} from './adapters/dialogue-log.js';
import type { Message, Parley } from './index.js';

// `@parley/client/ai-sdk`: message persistence for the Vercel AI SDK (v5 and later). A chat is a
// dialogue whose id is the chat id; a UIMessage is a message whose id is the UIMessage id and whose
// content is its `parts`, stored exactly; its `metadata`, when it has one, is kept in the message's
// metadata under METADATA_KEY. Only types come from `ai`: nothing of it is loaded at run time.

/** Where a UIMessage's own `metadata` is kept inside the Parley message's metadata. */
const METADATA_KEY = 'uiMessageMetadata';
const UI_ROLES = new Set(['system', 'user', 'assistant']);

export interface ParleyChatStoreOptions {
  client: Parley;
  /** The Parley namespace the chats live in (default: none). */
  namespace?: string;
}

export interface ParleyChatStore<M extends UIMessage = UIMessage> {
  /** The chat's messages, oldest first; none for a chat that has no message yet. */
  loadChat(chatId: string): Promise<M[]>;
  /**
   * Stores the chat's messages as the AI SDK hands them over (the whole list, in `onFinish`):
   * messages already stored are left alone, new ones are appended, and one whose parts or metadata
   * changed under the same id (a tool result arriving later) is replaced in its place.
   */
  saveChat(chat: { chatId: string; messages: M[] }): Promise<void>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function toParley(message: UIMessage): NewMessage {
  return {
    id: message.id,
    role: message.role,
    content: message.parts as unknown as Record<string, unknown>[],
    metadata: message.metadata === undefined ? null : { [METADATA_KEY]: message.metadata },
  };
}

function toUIMessage<M extends UIMessage>(message: Message): M {
  const parts =
    typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const ui = { id: message.id, role: message.role, parts } as unknown as M;
  if (message.metadata && METADATA_KEY in message.metadata) ui.metadata = message.metadata[METADATA_KEY];
  return ui;
}

/** A chat store over Parley for the AI SDK's `loadChat` / `saveChat` persistence pattern. */
export function parleyChatStore<M extends UIMessage = UIMessage>(
  options: ParleyChatStoreOptions,
): ParleyChatStore<M> {
  const refOf = (chatId: string): DialogueRef => ({
    client: options.client,
    dialogueId: chatId,
    namespace: options.namespace,
  });
  return {
    async loadChat(chatId) {
      const messages = await readMessages(refOf(chatId));
      return messages.filter((message) => UI_ROLES.has(message.role)).map((m) => toUIMessage<M>(m));
    },

    async saveChat({ chatId, messages }) {
      const ref = refOf(chatId);
      const stored = new Map((await readMessages(ref)).map((message) => [message.id, message]));
      const toAppend: NewMessage[] = [];
      for (const message of messages) {
        // Parley refuses empty content: a message without parts (a stream stopped before its
        // first part) has nothing to keep.
        if (message.parts.length === 0) continue;
        const wanted = toParley(message);
        const old = stored.get(message.id);
        if (old && same(old.content, wanted.content) && same(old.metadata, wanted.metadata)) continue;
        if (old) {
          // Parley's messages are immutable: a changed one is written again under its id, with its
          // first `created` so that it keeps its place among the others.
          await deleteMessage(ref, old.id);
          wanted.created = old.created;
        }
        toAppend.push(wanted);
      }
      await appendMessages(ref, toAppend);
    },
  };
}
