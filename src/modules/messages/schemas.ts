import { z } from 'zod';
import { createdRangeQuery } from '../../core/created-range.js';
import { cursorParam, limitParam, orderParam } from '../../core/cursor.js';
import {
  MESSAGE_ROLES,
  clientIdSchema,
  createdInputSchema,
  metadataSchema,
  namespaceSchema,
  tagsSchema,
} from '../../core/fields.js';
import { coded } from '../../core/validation.js';
import { RawJson } from '../../core/raw-json.js';

// The zod contract of the message routes (validation and the OpenAPI document). Content is checked here only for its shape;
// emptiness and size are rules of the service (D28), which MCP shares.

/** D31: a batch holds 1-100 messages. */
export const MAX_BATCH_MESSAGES = 100;

/** D27: custom ids are 1-128 characters of A-Za-z0-9._:- */
const messageIdSchema = clientIdSchema.describe(
  'Custom id (1-128 characters of A-Za-z0-9._:-), unique within the dialogue; generated if omitted',
);

const roleSchema = z.enum(MESSAGE_ROLES);
export type Role = z.infer<typeof roleSchema>;

const jsonObject = z.record(z.string(), z.unknown());

/** Content as a request carries it; the service reads its exact text through rawJsonAt (D28). */
const contentInputSchema = z
  .union([z.string(), jsonObject, z.array(jsonObject)])
  .nullable()
  .describe(
    'Text, a structured object or an array of blocks, stored and returned exactly as sent. ' +
      'Empty content ("", {}, []) or null: MESSAGE_CONTENT_EMPTY; more than 1 MiB: MESSAGE_TOO_LARGE.',
  );

/**
 * Content in a response: the stored JSON text, written out verbatim by the serializer (D28). Any
 * other value would be re-serialized, losing key order or big integers: the response check of
 * tests (buildApp's `validateResponses`) refuses it.
 */
export const contentOutputSchema = z
  .custom<RawJson>((value) => value instanceof RawJson)
  .meta({
    description: 'The content exactly as it was sent',
    // Open objects: without additionalProperties a generated client types them Record<string, never>.
    anyOf: [
      { type: 'string' },
      { type: 'object', additionalProperties: true },
      { type: 'array', items: { type: 'object', additionalProperties: true } },
    ],
  });

const exampleMessage = { role: 'user', content: 'Where is my order #1234?', name: 'Ada', tags: ['support'] };

export const messageInputSchema = z
  .object({
    id: messageIdSchema.optional(),
    role: roleSchema,
    content: contentInputSchema,
    name: z.string().min(1).max(256).nullable().optional().describe('Speaker name'),
    created: createdInputSchema
      .optional()
      .describe('ISO 8601 with a zone; the time of the request if omitted'),
    metadata: metadataSchema.nullable().optional(),
    tags: tagsSchema.optional(),
  })
  .meta({ example: exampleMessage });

export type MessageInputBody = z.infer<typeof messageInputSchema>;

const dialogueIdField = z.string().min(1).max(255);

export const createMessageBody = messageInputSchema
  .extend({
    dialogueId: dialogueIdField.optional().describe('Required here or in the query (D54)'),
    namespace: namespaceSchema.optional().describe("Must equal the dialogue's namespace (D34)"),
  })
  .meta({
    id: 'CreateMessageRequest',
    example: { dialogueId: 'dlg_01jf3c9r0d6e8x2v7m4k5n1p0q', ...exampleMessage },
  });

/** A list of messages; anything else given as one is INVALID_MESSAGE_ARRAY. */
export const messageArraySchema = z.array(messageInputSchema, {
  // A missing `messages` stays MISSING_PARAMETER; anything else that is not a list is this code.
  error: (issue) =>
    issue.input === undefined ? undefined : 'INVALID_MESSAGE_ARRAY|messages must be an array of messages',
});

/** D31: 1-100 messages, in the object form's `messages` or as a bare array (D55). */
const batchMessages = messageArraySchema
  .min(1, coded('EMPTY_MESSAGE_ARRAY', 'messages must hold at least one message'))
  .max(MAX_BATCH_MESSAGES, coded('TOO_MANY_MESSAGES', `at most ${MAX_BATCH_MESSAGES} messages per batch`));

export const batchObjectBody = z
  .object({
    dialogueId: dialogueIdField.optional().describe('Required here or in the query'),
    namespace: namespaceSchema.optional().describe("Must equal the dialogue's namespace (D34)"),
    messages: batchMessages,
  })
  .meta({
    id: 'CreateMessagesRequest',
    example: {
      dialogueId: 'dlg_01jf3c9r0d6e8x2v7m4k5n1p0q',
      messages: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: [{ type: 'text', text: 'Hi! How can I help?' }] },
      ],
    },
  });

/** D55: the DialogueDB client's form: a bare array, with `dialogueId` and `namespace` in the query. */
const batchArrayBody = batchMessages.meta({
  id: 'CreateMessagesArrayRequest',
  description: 'A bare array of 1-100 messages; `dialogueId` (and `namespace`) go in the query',
  example: [exampleMessage],
});

export const createBatchBody = z.xor([batchObjectBody, batchArrayBody]).meta({
  id: 'CreateMessagesBody',
  example: [exampleMessage, { role: 'assistant', content: 'It ships tomorrow.' }],
});

/** D54, D55: where the DialogueDB client names the dialogue of POST /message and POST /messages. */
export const messageTargetQuery = z.object({
  dialogueId: dialogueIdField.optional().describe('The dialogue, if the body does not name it (D54, D55)'),
  namespace: namespaceSchema.optional().describe("Must equal the dialogue's namespace (D34)"),
});

export const messageSchema = z
  .object({
    id: z.string(),
    dialogueId: z.string(),
    namespace: z.string().nullable(),
    role: roleSchema,
    content: contentOutputSchema,
    contentLength: z.number().int().describe('UTF-8 bytes of string content, of the JSON text otherwise'),
    name: z.string().nullable(),
    tags: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created: z.string(),
    modified: z.string(),
  })
  .meta({ id: 'Message' });

export type MessageRecord = z.infer<typeof messageSchema>;

export const messageListSchema = z
  .object({
    items: z.array(messageSchema),
    next: z.string().nullable().describe('Cursor of the next page; null on the last page'),
  })
  .meta({ id: 'MessageList' });

export const batchObjectResponse = z
  .object({ dialogueId: z.string(), items: z.array(messageSchema), totalMessages: z.number().int() })
  .meta({ id: 'CreatedMessages' });

/** D31 for the object form; D55: a bare array of the stored messages for the array form. */
export const batchResponseSchema = z.xor([
  batchObjectResponse,
  z.array(messageSchema).meta({ id: 'CreatedMessagesArray' }),
]);

export const deletedMessageSchema = z.object({
  success: z.boolean(),
  id: z.string(),
  dialogueId: z.string(),
});

/** D32: `limit` default 50, max 200; oldest first. */
const listMessagesPage = {
  namespace: namespaceSchema.optional(),
  ...createdRangeQuery,
  limit: limitParam(50, 200),
  order: orderParam('asc'),
  next: cursorParam,
};

export const listMessagesQuery = z.object({ dialogueId: z.string().min(1).max(255), ...listMessagesPage });
export const dialogueMessagesQuery = z.object(listMessagesPage);

export const messageParams = z.object({ messageId: z.string().min(1).max(255) });
export const messageQuery = z.object({
  dialogueId: z.string().min(1).max(255),
  namespace: namespaceSchema.optional(),
});
export const dialogueMessageParams = z.object({
  dialogueId: z.string().min(1).max(255),
  messageId: z.string().min(1).max(255),
});
export const namespaceQuery = z.object({ namespace: namespaceSchema.optional() });

/** D33: tags only; any other field is INVALID_INPUT. */
export const updateTagsBody = z
  .object({ tags: tagsSchema })
  .strict()
  .meta({ id: 'UpdateMessageTagsRequest', example: { tags: ['billing', 'resolved'] } });
