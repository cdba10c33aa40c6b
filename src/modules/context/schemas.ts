import { z } from 'zod';
import { namespaceSchema } from '../../core/fields.js';
import { contentOutputSchema } from '../messages/schemas.js';

// D81: the request and answer of GET /dialogue/{id}/context and the get_context tool.

const CONTEXT_FORMATS = ['messages', 'anthropic', 'text'] as const;
export type ContextFormat = (typeof CONTEXT_FORMATS)[number];

/** The largest budget: beyond any model's context window, small enough to bound the work. */
const MAX_CONTEXT_TOKENS = 2_000_000;

export const contextQuery = z.object({
  maxTokens: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_CONTEXT_TOKENS)
    .default(4_000)
    .describe(
      'Token budget (o200k_base, the summarizer tokenizer) for the summary and the messages together; default 4,000',
    ),
  format: z
    .enum(CONTEXT_FORMATS)
    .default('messages')
    .describe(
      '`messages`: OpenAI chat messages, summary first as a system message; `anthropic`: `system` ' +
        'text plus user/assistant turns; `text`: one transcript',
    ),
  namespace: namespaceSchema.optional().describe("When given, must be the dialogue's namespace (D53)"),
});

export type ContextQuery = z.infer<typeof contextQuery>;

/** A turn as the chosen chat API takes it; content is the stored content where the API takes it as is. */
const contextMessageSchema = z
  .object({
    role: z.string(),
    content: z.union([z.string(), contentOutputSchema, z.array(z.record(z.string(), z.unknown()))]),
    name: z.string().optional(),
  })
  .meta({ id: 'ContextMessage' });

export const contextSchema = z
  .object({
    format: z.enum(CONTEXT_FORMATS),
    messages: z
      .array(contextMessageSchema)
      .nullable()
      .describe('The turns to send, oldest first; null with format `text`'),
    system: z
      .string()
      .nullable()
      .describe('With format `anthropic`: the summary and the system and developer texts; else null'),
    text: z.string().nullable().describe('With format `text`: the transcript; else null'),
    tokens: z.number().int().describe('Tokens of what is returned'),
    omittedMessages: z
      .number()
      .int()
      .describe('Older messages left out: covered by the summary or beyond the budget'),
    fromMessageId: z.string().nullable().describe('The oldest message included; null when none fits'),
  })
  .meta({ id: 'DialogueContext' });

export type DialogueContext = z.infer<typeof contextSchema>;
