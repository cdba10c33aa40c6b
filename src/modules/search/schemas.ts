import { z } from 'zod';
import { dialogueSchema } from '../dialogues/schemas.js';
import { memorySchema } from '../memories/schemas.js';
import { messageSchema } from '../messages/schemas.js';
import { coded } from '../../core/validation.js';
import { namespaceSchema, tagsSchema } from '../../core/fields.js';
import { dateRange, isEmptyRange, isIsoDate, isTimeZone } from './filters.js';

// D39 and D59: the search contract. Every new input is bounded: string lengths, list sizes and the
// operator sets (an unknown operator is refused, never ignored).

const searchObjects = ['message', 'dialogue', 'memory'] as const;
export type SearchObject = (typeof searchObjects)[number];

const orderByValues = ['relevance', 'created', 'modified'] as const;
const orderValues = ['desc', 'asc'] as const;

/** At most this many metadata fields per search, and values per `$in` / `$nin` list. */
const MAX_METADATA_FIELDS = 20;
const MAX_METADATA_VALUES = 100;
const MAX_METADATA_STRING = 1024;

/**
 * The message of a union that matched no option: when the input had the shape of one option (an
 * object for `{$in, ...}`), what is wrong inside it (`$nin: Too big: ...`); otherwise `fallback`.
 */
function unionError(fallback: string) {
  return {
    error: (issue: { code?: string; errors?: unknown }) => {
      const options = (issue.code === 'invalid_union' ? issue.errors : undefined) as
        | { code: string; path: PropertyKey[]; message: string }[][]
        | undefined;
      // An option failing at its root (wrong type, or no member of a nested union) did not match.
      const mismatch = (i: { code: string; path: PropertyKey[] }) =>
        i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_union');
      const shaped = options?.find((list) => !list.some(mismatch));
      const first = shaped?.[0];
      if (!first) return fallback;
      const where = first.path
        .map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`))
        .join('');
      return where ? `${where.replace(/^\./, '')}: ${first.message}` : first.message;
    },
  };
}

/** An empty operator object is refused, but not again when an unknown key was its only one. */
const nonEmpty = (message: string) => ({
  message,
  when: (payload: { issues: unknown[] }) => payload.issues.length === 0,
});

const tagSchema = tagsSchema.element;
const tagOperandSchema = z.array(tagSchema).min(1).max(50);

const tagsFilterSchema = z
  .union(
    [
      tagsSchema,
      z
        .object({
          $in: tagOperandSchema.optional().describe('At least one of these tags'),
          $all: tagOperandSchema.optional().describe('Every one of these tags'),
          $nin: tagOperandSchema.optional().describe('None of these tags'),
        })
        .strict()
        .refine((ops) => Object.keys(ops).length > 0, nonEmpty('give at least one of $in, $all, $nin')),
    ],
    unionError('tags must be an array of tags or an object with $in, $all and/or $nin'),
  )
  .describe(
    'Tags of the searched object: an array (every tag required) or {$in, $all, $nin} (each 1-50 ' +
      'tags of 1-64 characters). Applies together with `tag`.',
  )
  .meta({ id: 'SearchTagsFilter' });

const metadataScalarSchema = z.union(
  [z.string().max(MAX_METADATA_STRING), z.number(), z.boolean(), z.null()],
  unionError(`must be a string (at most ${MAX_METADATA_STRING} characters), a number, a boolean or null`),
);
const comparableSchema = z.union(
  [z.string().max(MAX_METADATA_STRING), z.number()],
  unionError(`must be a number or a string (at most ${MAX_METADATA_STRING} characters)`),
);
const metadataListSchema = z.array(metadataScalarSchema).min(1).max(MAX_METADATA_VALUES);

const metadataOperatorsSchema = z
  .object({
    $eq: metadataScalarSchema.optional(),
    $ne: metadataScalarSchema.optional(),
    $in: metadataListSchema.optional(),
    $nin: metadataListSchema.optional(),
    $gt: comparableSchema.optional(),
    $gte: comparableSchema.optional(),
    $lt: comparableSchema.optional(),
    $lte: comparableSchema.optional(),
  })
  .strict()
  .refine((ops) => Object.keys(ops).length > 0, nonEmpty('give at least one operator'));

const metadataRecordSchema = z
  .record(
    z.string(),
    z.union(
      [metadataScalarSchema, metadataOperatorsSchema],
      unionError(
        'must be a string, number, boolean, null or an object of operators ($eq, $ne, $in, $nin, $gt, $gte, $lt, $lte)',
      ),
    ),
  )
  .superRefine((fields, ctx) => {
    const names = Object.keys(fields);
    if (names.length > MAX_METADATA_FIELDS) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_METADATA_FIELDS} fields` });
    }
    for (const name of names) {
      if (name.length < 1 || name.length > 128) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'field names are 1-128 characters' });
      }
    }
  })
  .describe(
    'Top-level fields of the searched object’s metadata: {field: value} (equal) or {field: {$eq, ' +
      '$ne, $in, $nin, $gt, $gte, $lt, $lte}}. Values are strings, numbers, booleans or null; $gt/$gte/' +
      '$lt/$lte compare numbers with numbers and strings with strings. At most 20 fields.',
  )
  .meta({ id: 'SearchMetadataFilter' });

/**
 * zod leaves a record's `__proto__` key out without a word (assigning it would set the prototype),
 * so its condition would vanish and the search find more than asked: refused before parsing.
 */
const metadataFilterSchema = z.preprocess((value, ctx) => {
  if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
    ctx.addIssue({
      code: 'custom',
      path: ['__proto__'],
      message: 'field name __proto__ is not allowed',
      input: value,
    });
  }
  return value;
}, metadataRecordSchema);

const isoDateSchema = z
  .string()
  .max(64)
  .refine(isIsoDate, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time that exists');

const dateFilterSchema = z
  .union(
    [
      isoDateSchema,
      z
        .object({
          gte: isoDateSchema.optional(),
          gt: isoDateSchema.optional(),
          lte: isoDateSchema.optional(),
          lt: isoDateSchema.optional(),
        })
        .strict()
        .refine(
          (bounds) => Object.keys(bounds).length > 0,
          nonEmpty('give at least one of gte, gt, lte, lt'),
        ),
    ],
    unionError('must be an ISO 8601 date or date-time, or a range {gte, gt, lte, lt}'),
  )
  .describe(
    'An ISO date or date-time (that whole day in `timezone`) or a range {gte?, gt?, lte?, lt?}; a ' +
      'bare date bound counts whole days, a date-time without a zone is read in `timezone`',
  )
  .meta({ id: 'SearchDateFilter' });

const filterSchema = z
  .object({
    created: dateFilterSchema.optional(),
    modified: dateFilterSchema.optional(),
    hasImage: z
      .boolean()
      .optional()
      .describe(
        'A message has an image when its content holds a block of type image, image_url or ' +
          'input_image; a dialogue, when one of its messages does; a memory never does',
      ),
  })
  .strict()
  .describe('Filters on the searched object’s own dates and content');

const badTimeZone = coded('INVALID_PARAMETER', 'timezone must be an IANA time zone name such as Europe/Oslo');

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
      .describe('Search only this namespace; without it, the whole project (D51)'),
    dialogueId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .describe(
        'Only messages of this dialogue (object=message); a namespaced dialogue must be named with ' +
          'its `namespace` (D34)',
      ),
    tag: z
      .union([tagsSchema.element, tagsSchema])
      .optional()
      .transform((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]))
      .describe('Only items carrying every given tag (a string or an array)'),
    tags: tagsFilterSchema.optional(),
    metadata: metadataFilterSchema.optional(),
    filter: filterSchema.optional(),
    timezone: z
      .string(badTimeZone)
      .max(64, { ...badTimeZone, abort: true })
      .refine(isTimeZone, badTimeZone)
      .default('UTC')
      .describe('IANA time zone in which dates of `filter` are read (default UTC)'),
    orderBy: z
      .enum(orderByValues, coded('INVALID_PARAMETER', 'orderBy must be one of relevance, created, modified'))
      .default('relevance')
      .describe('The best `limit` matches by relevance are ordered by this field (default relevance)'),
    order: z
      .enum(orderValues, coded('INVALID_PARAMETER', 'order must be desc or asc'))
      .default('desc')
      .describe('desc (default) or asc'),
    limit: z.number().int().min(1).max(100).default(10),
    minRelevance: z.number().min(0).max(1).default(0),
  })
  .strict()
  .refine((body) => body.dialogueId === undefined || body.object === 'message', {
    path: ['dialogueId'],
    message: 'dialogueId applies to object=message only',
  })
  .superRefine((body, ctx) => {
    // A range no instant satisfies is a mistake, as in the list filters (docs/api-decisions.md).
    if (!isTimeZone(body.timezone)) return;
    for (const field of ['created', 'modified'] as const) {
      const input = body.filter?.[field];
      const range = input === undefined ? undefined : dateRange(input, body.timezone);
      if (range && isEmptyRange(range)) {
        ctx.addIssue({ code: 'custom', path: ['filter', field], message: 'the range is empty' });
      }
    }
  });

export type SearchInput = z.output<typeof searchBody>;

const searchModes = ['semantic', 'hybrid', 'lexical'] as const;
export type SearchMode = (typeof searchModes)[number];

const relevanceSchema = z.number().min(0).max(1);

const searchMatchSchema = z
  .object({ object: z.literal('message'), relevance: relevanceSchema, item: messageSchema })
  .meta({ id: 'SearchMatch' });

/** One found record; `object` says which kind (the request's `object`) and so the shape of `item`. */
const searchResultSchema = z
  .discriminatedUnion('object', [
    z.object({ object: z.literal('message'), relevance: relevanceSchema, item: messageSchema }),
    z.object({
      object: z.literal('dialogue'),
      relevance: relevanceSchema,
      item: dialogueSchema,
      matches: z
        .array(searchMatchSchema)
        .max(3)
        .describe('The dialogue’s best messages for the query, best first (up to 3)'),
    }),
    z.object({ object: z.literal('memory'), relevance: relevanceSchema, item: memorySchema }),
  ])
  .meta({ id: 'SearchResult' });

export type SearchResult = z.output<typeof searchResultSchema>;

const appliedRangeSchema = z
  .object({
    gte: z.string().optional(),
    gt: z.string().optional(),
    lte: z.string().optional(),
    lt: z.string().optional(),
  })
  .describe('UTC instants; at most one lower (gte or gt) and one upper (lte or lt) bound');

const appliedFilterSchema = z
  .object({
    namespace: z.string().nullable().describe('null: the whole project'),
    dialogueId: z.string().nullable(),
    tags: z
      .object({
        $all: z.array(z.string()).optional(),
        $in: z.array(z.string()).optional(),
        $nin: z.array(z.string()).optional(),
      })
      .nullable()
      .describe('`tag` and `tags` together; a plain array becomes $all'),
    metadata: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .nullable()
      .describe('{field: {operator: value}}; a plain value becomes $eq'),
    created: appliedRangeSchema.nullable(),
    modified: appliedRangeSchema.nullable(),
    hasImage: z.boolean().nullable(),
  })
  .meta({ id: 'SearchAppliedFilter' });

export type AppliedFilter = z.output<typeof appliedFilterSchema>;

export const searchResponse = z
  .object({
    results: z.array(searchResultSchema),
    mode: z.enum(searchModes),
    request: z
      .object({
        orderBy: z.enum(orderByValues),
        order: z.enum(orderValues),
        candidateOrderBy: z
          .literal('relevance')
          .describe('The results are the best `limit` matches by relevance, then ordered by `orderBy`'),
        filter: appliedFilterSchema,
      })
      .describe('How the search ran (D59)'),
  })
  .meta({ id: 'SearchResults' });
