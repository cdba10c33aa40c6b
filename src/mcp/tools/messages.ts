import { namespaceSchema } from '../../core/fields.js';
import { messageInputAt } from '../../http/message-inputs.js';
import {
  type MessageInputBody,
  batchObjectBody,
  batchObjectResponse,
  listMessagesQuery,
  messageParams,
  messageQuery,
  messageSchema,
  messageListSchema,
} from '../../modules/messages/schemas.js';
import { renderAddedMessages, renderMessage, renderMessageList } from '../render.js';
import { type ToolCall, readTool, writeTool } from '../tool-kit.js';
import type { NewBatchInput } from '../../modules/messages/service.js';
import { dialogueIdArgument } from './dialogues.js';

// D42: message tools, one call each into the message service that REST uses.

/** D34, worded for a model. */
const namespaceArgument = namespaceSchema
  .optional()
  .describe("The dialogue's namespace: required when the dialogue was created with one, else leave it out");

/** The service's input for `add_messages`: each message's content as the raw JSON text sent. */
const batchOf = (
  {
    dialogueId,
    namespace,
    messages,
  }: { dialogueId: string; namespace?: string; messages: MessageInputBody[] },
  call: ToolCall,
): NewBatchInput => ({
  dialogueId,
  namespace,
  messages: messages.map((message, index) =>
    messageInputAt(call.request, message, call.at('messages', index)),
  ),
});

export const addMessages = writeTool({
  name: 'add_messages',
  title: 'Add messages to a dialogue',
  description:
    'Appends 1-100 messages to an existing dialogue, in order, all or nothing: if one is invalid ' +
    'none is stored and the error names it (messages[i]). Each message needs `role` ("user", ' +
    '"assistant" or "system") and `content` (text, an array of blocks such as tool calls, or an ' +
    'object; stored and returned exactly as sent, at most 1 MiB); `id`, `name`, `created`, `tags` ' +
    'and `metadata` are optional. Pass `namespace` when the dialogue has one. Refused on an ended ' +
    'dialogue (DIALOGUE_ENDED). Returns the stored messages and the new message count.',
  input: batchObjectBody.extend({ dialogueId: dialogueIdArgument, namespace: namespaceArgument }),
  output: batchObjectResponse.extend({}),
  render: renderAddedMessages,
  write: (tx, args, call) => call.services.messages.createBatch(tx, call.ctx, batchOf(args, call)),
  standalone: (db, guards, args, call) =>
    call.services.messages.createBatchAlone(db, guards, call.ctx, batchOf(args, call)),
});

export const listMessages = readTool({
  name: 'list_messages',
  title: 'List the messages of a dialogue',
  description:
    'Returns the messages of one dialogue with their full content, oldest first (`order: "desc"` for ' +
    'newest first), `limit` per page (default 50, max 200). Returns `items` and `next`: pass `next` ' +
    'back to read the following page; null means the last page. Pass `namespace` when the dialogue ' +
    'has one.',
  input: listMessagesQuery.extend({ dialogueId: dialogueIdArgument, namespace: namespaceArgument }),
  output: messageListSchema.extend({}),
  render: renderMessageList,
  read: (args, call) => call.services.messages.list(call.ctx, args),
});

export const getMessage = readTool({
  name: 'get_message',
  title: 'Get one message',
  description:
    'Returns one message of a dialogue by its id, with its full content exactly as it was stored. ' +
    'Pass `namespace` when the dialogue has one.',
  input: messageQuery.extend({
    dialogueId: dialogueIdArgument,
    namespace: namespaceArgument,
    messageId: messageParams.shape.messageId.describe(
      'Id of the message (msg_... or the custom id it was given)',
    ),
  }),
  output: messageSchema.extend({}),
  render: renderMessage,
  read: (locator, call) => call.services.messages.get(call.ctx, locator),
});
