import { z } from 'zod';
import { createdRangeQuery } from '../../core/created-range.js';
import { cursorParam, limitParam, orderParam } from '../../core/cursor.js';
import {
  clientIdSchema,
  expiresAtInputSchema,
  metadataSchema,
  namespaceSchema,
  tagsSchema,
} from '../../core/fields.js';
import { RawJson } from '../../core/raw-json.js';

// D37-D38: the memory contract, for validation and OpenAPI alike.

const labelField = z.string().max(128);
const descriptionField = z.string().max(1024).describe('At most 1,024 characters; searchable (D57)');

/**
 * D57: any JSON value but null. Only its type is checked here: emptiness and size are rules of the
 * service, which reads the value's exact text (D28) and which MCP shares.
 */
const valueField = z
  .union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown())])
  .describe(
    'Any JSON value (text, number, boolean, object, array), stored and returned exactly as sent; ' +
      'at most 65,536 bytes (a string by its UTF-8 bytes, anything else by its JSON text). ' +
      'null, "", [] and {} are refused (D57).',
  );

/** The value in a response: the stored JSON text, written out verbatim by the serializer (D28). */
const valueOutputSchema = z
  .custom<RawJson>((value) => value instanceof RawJson)
  .meta({
    description: 'The value exactly as it was sent',
    anyOf: [
      { type: 'string' },
      { type: 'number' },
      { type: 'boolean' },
      // Open objects: without additionalProperties a generated client types them Record<string, never>.
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
  });

export const memorySchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    namespace: z.string().nullable(),
    label: z.string().nullable(),
    description: z.string().nullable(),
    value: valueOutputSchema,
    tags: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    expiresAt: z.string().nullable().describe('D150: when the memory stops existing; null: never'),
    created: z.string(),
    modified: z.string(),
  })
  .meta({ id: 'Memory' });

export type MemoryView = z.infer<typeof memorySchema>;

export const createMemoryBody = z
  .object({
    id: clientIdSchema
      .optional()
      .describe(
        'D57: your own id (1-128 characters of A-Za-z0-9._:-); taken: 409 DUPLICATE_ID. Generated if omitted',
      ),
    value: valueField,
    label: labelField.optional(),
    description: descriptionField.optional(),
    namespace: namespaceSchema.optional(),
    tags: tagsSchema.optional(),
    metadata: metadataSchema.optional(),
    expiresAt: expiresAtInputSchema.optional(),
  })
  .strict();

export type CreateMemoryBody = z.infer<typeof createMemoryBody>;

export const updateMemoryBody = z
  .object({
    tags: tagsSchema.optional(),
    value: valueField.optional(),
    label: labelField.nullable().optional(),
    description: descriptionField.nullable().optional().describe('null clears it'),
    expiresAt: expiresAtInputSchema.nullable().optional(),
  })
  .strict();

export type UpdateMemoryBody = z.infer<typeof updateMemoryBody>;

/** A repeatable query parameter: `?tag=a&tag=b` arrives as an array, `?tag=a` as a string. */
const repeatableTag = z
  .union([z.string().min(1).max(64), z.array(z.string().min(1).max(64)).max(50)])
  .optional()
  .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
  .describe('Only items carrying this tag; repeat it to require several');

export const listMemoriesQuery = z
  .object({
    namespace: namespaceSchema.optional(),
    label: labelField.optional(),
    tag: repeatableTag,
    ...createdRangeQuery,
    limit: limitParam(20, 100),
    order: orderParam('desc'),
    next: cursorParam,
  })
  .strict();

export type ListMemoriesQuery = z.infer<typeof listMemoriesQuery>;

export const memoryParams = z.object({ id: z.string().min(1).max(128) });

/** Optional on get, update and delete: when given, a memory of another namespace is not found. */
export const memoryNamespaceQuery = z.object({ namespace: namespaceSchema.optional() }).strict();

export const memoryListResponse = z.object({ items: z.array(memorySchema), next: z.string().nullable() });
export const deletedResponse = z.object({ success: z.boolean(), id: z.string() });
