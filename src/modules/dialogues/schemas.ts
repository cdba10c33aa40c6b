import { z } from 'zod';
import { createdRangeQuery } from '../../core/created-range.js';
import { cursorParam, limitParam, orderParam } from '../../core/cursor.js';
import {
  clientIdSchema,
  createdInputSchema,
  expiresAtInputSchema,
  metadataSchema,
  namespaceSchema,
  stateSchema,
  tagsSchema,
} from '../../core/fields.js';
import { coded } from '../../core/validation.js';
import { messageArraySchema, messageInputSchema, messageSchema } from '../messages/schemas.js';

// The zod contract of the dialogue routes (validation and the OpenAPI document).

/** D16, D19: messages at creation and per update. */
export const MAX_DIALOGUE_MESSAGES = 25;

const labelSchema = z.string().max(128).describe('At most 128 characters');

const statusSchema = z.enum(['active', 'ended', 'canceled', 'expired', 'deleted']);

const tooMany = coded('TOO_MANY_MESSAGES', `at most ${MAX_DIALOGUE_MESSAGES} messages`);

const exampleMessages = [
  { role: 'system', content: 'You are a helpful support agent.' },
  { role: 'user', content: 'Where is my order #1234?' },
];

export const createDialogueBody = z
  .object({
    id: clientIdSchema
      .optional()
      .describe(
        'D57a: your own id (1-128 characters of A-Za-z0-9._:-); taken: 409 DUPLICATE_ID. Generated if omitted',
      ),
    created: createdInputSchema
      .optional()
      .describe(
        'D57a: creation time (ISO 8601 with a zone), for importing history; messages without their own `created` take it',
      ),
    namespace: namespaceSchema.optional(),
    threadOf: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe('Parent dialogue id: makes this dialogue a thread'),
    label: labelSchema.optional(),
    tags: tagsSchema.optional(),
    metadata: metadataSchema.optional(),
    state: stateSchema.optional(),
    expiresAt: expiresAtInputSchema.optional(),
    messages: messageArraySchema
      .max(MAX_DIALOGUE_MESSAGES, tooMany)
      .optional()
      .describe('History, added first and in order'),
    message: messageInputSchema.optional().describe('Added after `messages`; at most 25 in all'),
  })
  .meta({
    id: 'CreateDialogueRequest',
    example: {
      namespace: 'user-42',
      label: 'Order inquiry',
      tags: ['support'],
      metadata: { channel: 'web' },
      state: { step: 'greeting' },
      messages: exampleMessages,
    },
  });

/** D19: the fields an update may carry; the others named there are refused (strict). */
export const updateDialogueBody = z
  .object({
    // D53: the DialogueDB client repeats the dialogue's id and namespace; they must match.
    id: z.string().min(1).max(255).optional().describe('D53: if given, must equal the id in the path'),
    namespace: namespaceSchema
      .nullable()
      .optional()
      .describe("D53: if given, must equal the dialogue's namespace (it cannot change)"),
    tags: tagsSchema.optional().describe('Replaces the whole list'),
    label: labelSchema.nullable().optional().describe('At most 128 characters; null clears it'),
    state: stateSchema.optional().describe('Merged into the state as a JSON Merge Patch (RFC 7396)'),
    expiresAt: expiresAtInputSchema.nullable().optional(),
    messages: messageArraySchema.max(MAX_DIALOGUE_MESSAGES, tooMany).optional(),
    message: messageInputSchema.optional(),
  })
  .strict()
  .meta({
    id: 'UpdateDialogueRequest',
    example: { label: 'Order #1234', tags: ['support', 'orders'], state: { step: 'lookup', draft: null } },
  });

export const stateBody = stateSchema.meta({
  id: 'StatePatch',
  example: { step: 'checkout', cart: { items: 2 }, draft: null },
});

const dialogueSummarySchema = z
  .object({
    text: z.string(),
    model: z.string(),
    messageCount: z.number().int(),
    upToMessageId: z.string().nullable(),
    created: z.string(),
  })
  .meta({ id: 'DialogueSummary' });

const dialogueFields = {
  id: z.string(),
  projectId: z.string(),
  namespace: z.string().nullable(),
  threadOf: z.string().nullable(),
  label: z.string().nullable(),
  status: statusSchema,
  expired: z.boolean(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  state: z.record(z.string(), z.unknown()),
  summary: dialogueSummarySchema.nullable(),
  totalMessages: z.number().int(),
  forkedFrom: z
    .object({ dialogueId: z.string(), messageId: z.string().nullable() })
    .nullable()
    .describe('D160: for a fork, the dialogue and its last message it was copied from; null otherwise'),
  threadCount: z.number().int(),
  lastMessageCreated: z.string().nullable(),
  expiresAt: z.string().nullable().describe('D150: when the dialogue stops existing; null: never'),
  created: z.string(),
  modified: z.string(),
};

export const dialogueSchema = z.object(dialogueFields).meta({ id: 'Dialogue' });

export const dialogueWithMessagesSchema = z
  .object({ ...dialogueFields, messages: z.array(messageSchema) })
  .meta({ id: 'DialogueWithMessages' });

export const dialogueListSchema = z
  .object({
    items: z.array(dialogueSchema),
    next: z.string().nullable().describe('Cursor of the next page; null on the last page'),
  })
  .meta({ id: 'DialogueList' });

export const dialogueParams = z.object({ id: z.string().min(1).max(255) });

const pathNamespace = namespaceSchema
  .optional()
  .describe("D53: if given, must be the dialogue's namespace, else 404 DIALOGUE_NOT_FOUND; may be left out");

/** D53: the query of every route naming a dialogue in its path. */
export const dialogueNamespaceQuery = z.object({ namespace: pathNamespace });

export const getDialogueQuery = z.object({
  namespace: pathNamespace,
  messages: z
    .enum(['last', 'first'])
    .default('last')
    .describe('The 10 most recent messages (default) or the first 10, oldest first either way'),
});

const tagFilter = z.string().min(1).max(64);

/** D26 */
export const listDialoguesQuery = z.object({
  query: z.enum(['default', 'threads']).default('default').describe('`threads` lists only threads'),
  threadOf: z.string().min(1).max(255).optional().describe('Only threads of this dialogue'),
  forkedFrom: z.string().min(1).max(255).optional().describe('D160: only forks of this dialogue'),
  namespace: namespaceSchema.optional(),
  status: statusSchema.optional(),
  tag: z
    .union([tagFilter, z.array(tagFilter).max(50)])
    .optional()
    .describe('Repeatable: every given tag must be present'),
  date: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe(
      'Creation time: a UTC day `YYYY-MM-DD`, or an ISO 8601 interval `start/end` of dates or date-times ' +
        '(`start/` and `/end` leave one side open; a date-time end is exclusive, a date end includes that day)',
    ),
  ...createdRangeQuery,
  limit: limitParam(20, 100),
  order: orderParam('desc'),
  next: cursorParam,
});

export type ListDialoguesQuery = z.infer<typeof listDialoguesQuery>;

/** D160: a fork's options; left out, the original's namespace, tags and label are kept. */
export const forkDialogueBody = z
  .object({
    upToMessageId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('The last message to copy (included); every message when left out'),
    namespace: namespaceSchema.optional().describe("The fork's namespace; the original's when left out"),
    tags: tagsSchema.optional().describe("The fork's tags; the original's when left out"),
    label: labelSchema.optional().describe("The fork's label; the original's when left out"),
  })
  .strict()
  .meta({
    id: 'ForkDialogueRequest',
    example: { upToMessageId: 'msg_01hz3k4m5n6p7q8r9s0t1v2w3x', label: 'Try B' },
  });

export type ForkDialogueInput = z.infer<typeof forkDialogueBody>;

export const deletedDialogueSchema = z.object({ success: z.boolean(), id: z.string() });
