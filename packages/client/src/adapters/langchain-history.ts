import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import {
  type BaseMessage,
  type StoredMessage,
  mapChatMessagesToStoredMessages,
  mapStoredMessagesToChatMessages,
} from '@langchain/core/messages';
import type { Message, Parley } from '../index.js';
import {
  type DialogueRef,
  type NewMessage,
  appendMessages,
  deleteDialogue,
  readMessages,
} from './dialogue-log.js';

// A LangChain.js chat history over a Parley dialogue. Each message is stored as LangChain's own
// serialization of it (`mapChatMessagesToStoredMessages`: `{type, data}`, with tool calls, tool call
// ids, names, additional kwargs and multimodal content), so that it comes back as it was; the Parley
// role is set from its type, so that the dialogue reads naturally in Parley's context and search.

export interface ParleyChatMessageHistoryInput {
  client: Parley;
  /** The dialogue holding the history; made by the first message added under this id. */
  dialogueId: string;
  /** The Parley namespace of the dialogue (default: none). */
  namespace?: string;
}

const ROLE_OF_TYPE: Record<string, NewMessage['role']> = {
  human: 'user',
  ai: 'assistant',
  system: 'system',
  developer: 'developer',
  tool: 'tool',
  function: 'tool',
};
const TYPE_OF_ROLE: Record<Message['role'], string> = {
  user: 'human',
  assistant: 'ai',
  system: 'system',
  developer: 'system',
  tool: 'tool',
};

const isStored = (content: Message['content']): content is Record<string, unknown> =>
  !Array.isArray(content) &&
  typeof content === 'object' &&
  typeof content.type === 'string' &&
  'data' in content;

/** A message another client wrote in its own form, read as the LangChain message of its role. */
function storedFrom(message: Message): StoredMessage {
  if (isStored(message.content)) return message.content as unknown as StoredMessage;
  return {
    type: TYPE_OF_ROLE[message.role],
    data: {
      content: message.content as string,
      role: message.role,
      name: message.name ?? undefined,
      tool_call_id: message.role === 'tool' ? (message.name ?? '') : undefined,
      id: message.id,
    },
  };
}

export class ParleyChatMessageHistory extends BaseListChatMessageHistory {
  override lc_namespace = ['langchain', 'stores', 'message', 'parley'];
  private readonly ref: DialogueRef;

  constructor(fields: ParleyChatMessageHistoryInput) {
    super(fields);
    this.ref = { client: fields.client, dialogueId: fields.dialogueId, namespace: fields.namespace };
  }

  async getMessages(): Promise<BaseMessage[]> {
    return mapStoredMessagesToChatMessages((await readMessages(this.ref)).map(storedFrom));
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  override async addMessages(messages: BaseMessage[]): Promise<void> {
    await appendMessages(
      this.ref,
      mapChatMessagesToStoredMessages(messages).map((stored) => ({
        role: ROLE_OF_TYPE[stored.type] ?? (stored.data.role === 'assistant' ? 'assistant' : 'user'),
        name: stored.data.name ?? null,
        content: JSON.parse(JSON.stringify(stored)) as Record<string, unknown>,
      })),
    );
  }

  /** Deletes the dialogue; the next message added starts it again under the same id. */
  override async clear(): Promise<void> {
    await deleteDialogue(this.ref);
  }
}
