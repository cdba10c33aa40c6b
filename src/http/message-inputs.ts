import type { FastifyRequest } from 'fastify';
import { rawJsonAt } from './json-body.js';
import type { MessageInputBody } from '../modules/messages/schemas.js';
import type { MessageInput } from '../modules/messages/records.js';

/**
 * A validated message of a request body with its content as the exact JSON text the client sent
 * (D28). `path` locates the message in the body: [] for POST /message, ['messages', 3], ['message'].
 */
export function messageInputAt(
  request: FastifyRequest,
  body: MessageInputBody,
  path: (string | number)[],
): MessageInput {
  const content = rawJsonAt(request, [...path, 'content']);
  // Validation required `content` to be present, so the raw text is there.
  return { ...body, content: content! };
}

/**
 * The messages of `messages` and `message` of a dialogue create or update, in that order (D16).
 * `at` locates these fields in the body: [] for REST; MCP passes where its tool arguments sit.
 */
export function dialogueMessageInputs(
  request: FastifyRequest,
  body: { messages?: MessageInputBody[]; message?: MessageInputBody },
  at: (string | number)[] = [],
) {
  const items = (body.messages ?? []).map((message, index) => ({
    field: `messages[${index}]`,
    input: messageInputAt(request, message, [...at, 'messages', index]),
  }));
  if (body.message) {
    items.push({ field: 'message', input: messageInputAt(request, body.message, [...at, 'message']) });
  }
  return items;
}
