import { z } from 'zod';
import { createdRangeQuery } from '../../core/created-range.js';
import { cursorParam, limitParam, orderParam } from '../../core/cursor.js';
import { metadataSchema, namespaceSchema, tagsSchema } from '../../core/fields.js';

// D37-D38: the memory contract, for validation and OpenAPI alike.

const MAX_VALUE_BYTES = 64 * 1024;

const labelField = z.string().max(128);
const valueField = z
  .string()
  .min(1)
  .refine((value) => Buffer.byteLength(value, 'utf8') <= MAX_VALUE_BYTES, 'must be at most 64 KiB')
  .describe('The remembered text, 1 byte to 64 KiB');

export const memorySchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    namespace: z.string().nullable(),
    label: z.string().nullable(),
    value: z.string(),
    tags: z.array(z.string()),
    metadata: z.record(z.string(), z.unknown()).nullable(),
    created: z.string(),
    modified: z.string(),
  })
  .meta({ id: 'Memory' });

export type MemoryView = z.infer<typeof memorySchema>;

export const createMemoryBody = z
  .object({
    value: valueField,
    label: labelField.optional(),
    namespace: namespaceSchema.optional(),
    tags: tagsSchema.optional(),
    metadata: metadataSchema.optional(),
  })
  .strict();

export type CreateMemoryInput = z.infer<typeof createMemoryBody>;

export const updateMemoryBody = z
  .object({
    tags: tagsSchema.optional(),
    value: valueField.optional(),
    label: labelField.nullable().optional(),
  })
  .strict();

export type UpdateMemoryInput = z.infer<typeof updateMemoryBody>;

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
