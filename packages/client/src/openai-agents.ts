import type { AgentInputItem, Session } from '@openai/agents';
import {
  type DialogueRef,
  type NewMessage,
  appendMessages,
  deleteDialogue,
  deleteMessage,
  readMessages,
  readNewest,
} from './adapters/dialogue-log.js';
import type { Parley } from './index.js';

// `@parley/client/openai-agents`: a session of the OpenAI Agents SDK over a Parley dialogue whose
// id is the session id. Each item (a message, a function call or its result, a reasoning item, ...)
// is one Parley message whose content is the item exactly as given. Only types come from
// `@openai/agents`: nothing of it is loaded at run time.

export interface ParleySessionOptions {
  client: Parley;
  /** The dialogue holding the session; without one a new id is made (the dialogue is made by the first write). */
  sessionId?: string;
  /** The Parley namespace of the dialogue (default: none). */
  namespace?: string;
}

const MESSAGE_ROLES = new Set<NewMessage['role']>(['user', 'assistant', 'system', 'developer']);

/** The Parley role that reads best: a message's own, `tool` for a tool's output, else `assistant`. */
function roleOf(item: AgentInputItem): NewMessage['role'] {
  const role = 'role' in item ? (item.role as NewMessage['role']) : undefined;
  if (role && MESSAGE_ROLES.has(role)) return role;
  return item.type?.endsWith('_result') || item.type?.endsWith('_output') ? 'tool' : 'assistant';
}

export class ParleySession implements Session {
  private readonly ref: DialogueRef;

  constructor(options: ParleySessionOptions) {
    this.ref = {
      client: options.client,
      dialogueId: options.sessionId ?? globalThis.crypto.randomUUID(),
      namespace: options.namespace,
    };
  }

  async getSessionId(): Promise<string> {
    return this.ref.dialogueId;
  }

  /** The most recent `limit` items (all without one), oldest first. */
  async getItems(limit?: number): Promise<AgentInputItem[]> {
    if (limit !== undefined && limit <= 0) return [];
    const messages = limit === undefined ? await readMessages(this.ref) : await this.newest(limit);
    return messages.map((message) => message.content as unknown as AgentInputItem);
  }

  async addItems(items: AgentInputItem[]): Promise<void> {
    await appendMessages(
      this.ref,
      items.map((item) => ({
        role: roleOf(item),
        content: JSON.parse(JSON.stringify(item)) as Record<string, unknown>,
      })),
    );
  }

  /** Removes the most recent item and returns it. */
  async popItem(): Promise<AgentInputItem | undefined> {
    const [last] = await readNewest(this.ref, 1);
    if (!last) return undefined;
    await deleteMessage(this.ref, last.id);
    return last.content as unknown as AgentInputItem;
  }

  async clearSession(): Promise<void> {
    await deleteDialogue(this.ref);
  }

  /** A page holds at most 200 messages: more are read through the whole list. */
  private async newest(limit: number) {
    if (limit <= 200) return readNewest(this.ref, limit);
    return (await readMessages(this.ref)).slice(-limit);
  }
}
