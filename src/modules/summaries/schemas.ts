import { z } from 'zod';
import { cursorParam, limitParam, orderParam } from '../../core/cursor.js';
import { clientIdSchema, metadataSchema, namespaceSchema, tagsSchema } from '../../core/fields.js';
import { coded } from '../../core/validation.js';

// The zod contract of the summary routes (D56): validation and the OpenAPI document.

const dialogueIdField = z.string().min(1).max(255);
const messageIdField = z.string().min(1).max(255);

export const createSummaryBody = z
  .object({
    dialogueId: dialogueIdField,
    namespace: namespaceSchema.optional().describe("When given, must be the dialogue's namespace (D53)"),
    id: clientIdSchema
      .optional()
      .describe(
        'Custom id (1-128 characters of A-Za-z0-9._:-): a repeat with the same id answers 200 with the stored summary',
      ),
    startId: messageIdField.optional().describe('First message of the range (inclusive, in dialogue order)'),
    endId: messageIdField.optional().describe('Last message of the range (inclusive, in dialogue order)'),
    template: z
      .unknown()
      .refine((value) => value === undefined, coded('INVALID_PARAMETER', 'Parley has no summary templates'))
      .optional()
      .describe('Not supported: any value is 400 INVALID_PARAMETER'),
    tags: tagsSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict()
  .meta({
    id: 'CreateSummaryRequest',
    example: { dialogueId: 'dlg_01jf3c9r0d6e8x2v7m4k5n1p0q', namespace: 'user-42' },
  });

export const summarySchema = z
  .object({
    id: z.string(),
    dialogueId: z.string(),
    projectId: z.string(),
    status: z
      .enum(['processing', 'completed', 'failed'])
      .describe('Never `processing`: summaries are made synchronously'),
    namespace: z.string().nullable(),
    content: z
      .string()
      .nullable()
      .describe('The summary; null when there was nothing to summarize or it failed'),
    contentTokenCount: z.number().int().nullable(),
    provider: z
      .string()
      .describe('`parley` (the built-in extractive summarizer) or `openai` (an OpenAI-compatible model)'),
    model: z.string(),
    template: z.null(),
    fromCreated: z.string().nullable().describe('`created` of the first message covered'),
    toCreated: z.string().nullable().describe('`created` of the last message covered'),
    messageCount: z.number().int().describe('Messages covered'),
    summarizedCount: z.number().int().describe('Messages whose text the summary drew on'),
    skippedCount: z.number().int().describe('Messages covered without text to draw on'),
    error: z.string().nullable().describe('Why the summary failed (status `failed`)'),
    metadata: z.record(z.string(), z.unknown()),
    tags: z.array(z.string()),
    created: z.string(),
    modified: z.string(),
  })
  .meta({ id: 'Summary' });

export const summaryListSchema = z
  .object({
    items: z.array(summarySchema),
    next: z.string().nullable().describe('Cursor of the next page; null on the last page'),
  })
  .meta({ id: 'SummaryList' });

export const summaryParams = z.object({ id: z.string().min(1).max(255) });

export const summaryNamespaceQuery = z
  .object({
    namespace: namespaceSchema.optional().describe("When given, must be the dialogue's namespace (D53)"),
  })
  .strict();

export const listSummariesQuery = z
  .object({
    dialogueId: dialogueIdField,
    namespace: namespaceSchema.optional().describe("When given, must be the dialogue's namespace (D53)"),
    limit: limitParam(20, 100),
    order: orderParam('desc'),
    next: cursorParam,
  })
  .strict();

export type ListSummariesQuery = z.infer<typeof listSummariesQuery>;
