import { z } from 'zod';
import { dialogueSchema } from '../dialogues/schemas.js';
import { memorySchema } from '../memories/schemas.js';
import { messageSchema } from '../messages/schemas.js';
import { coded } from '../../core/validation.js';
import { namespaceSchema, tagsSchema } from '../../core/fields.js';

// D39: the search contract.

const searchObjects = ['message', 'dialogue', 'memory'] as const;
export type SearchObject = (typeof searchObjects)[number];

export const searchBody = z
  .object({
    query: z
      .string()
      .trim()
      .min(3, coded('SEARCH_QUERY_TOO_SHORT', 'query must be at least 3 characters after trimming'))
      .max(2000),
    object: z
      .enum(searchObjects, coded('INVALID_PARAMETER', 'object must be one of message, dialogue, memory'))
      .default('message'),
    namespace: namespaceSchema
      .optional()
      .describe('Search this namespace; without it, items with no namespace'),
    dialogueId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe('Only messages of this dialogue (object=message)'),
    tag: z
      .union([tagsSchema.element, tagsSchema])
      .optional()
      .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
      .describe('Only items carrying every given tag'),
    limit: z.number().int().min(1).max(100).default(10),
    minRelevance: z.number().min(0).max(1).default(0),
  })
  .strict()
  .refine((body) => body.dialogueId === undefined || body.object === 'message', {
    path: ['dialogueId'],
    message: 'dialogueId applies to object=message only',
  });

export type SearchInput = z.output<typeof searchBody>;

const searchModes = ['semantic', 'hybrid', 'lexical'] as const;
export type SearchMode = (typeof searchModes)[number];

const relevanceSchema = z.number().min(0).max(1);

/** One found record; `object` says which kind (the request's `object`) and so the shape of `item`. */
const searchResultSchema = z
  .discriminatedUnion('object', [
    z.object({ object: z.literal('message'), relevance: relevanceSchema, item: messageSchema }),
    z.object({ object: z.literal('dialogue'), relevance: relevanceSchema, item: dialogueSchema }),
    z.object({ object: z.literal('memory'), relevance: relevanceSchema, item: memorySchema }),
  ])
  .meta({ id: 'SearchResult' });

export type SearchResult = z.output<typeof searchResultSchema>;

export const searchResponse = z
  .object({
    results: z.array(searchResultSchema),
    mode: z.enum(searchModes),
  })
  .meta({ id: 'SearchResults' });
