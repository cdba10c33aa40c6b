import { z } from 'zod';
import { limitParam } from '../../core/cursor.js';
import { namespaceSchema } from '../../core/fields.js';
import { RawJson } from '../../core/raw-json.js';
import { EVENT_TYPES } from './records.js';

// The zod contract of the event routes (D65, D66) and of the MCP tool list_events (D71).

/** A type to keep: an exact type, or a resource prefix such as `message.*`. */
export const typeFilter = z
  .enum([...EVENT_TYPES, 'dialogue.*', 'message.*', 'memory.*', 'namespace.*'])
  .describe(
    'An event type, or `dialogue.*`, `message.*`, `memory.*`, `namespace.*` for every type of one resource',
  );

const seqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The filters the feed, the stream and list_events share (D65, D66, D71). */
const filterFields = {
  type: z
    .union([typeFilter, z.array(typeFilter).max(20)])
    .optional()
    .describe('Repeatable: events of any of the given types'),
  dialogueId: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe("A dialogue's events: its own and its messages'"),
  namespace: namespaceSchema.optional().describe('Events of objects in this namespace'),
};

export const listEventsQuery = z
  .object({
    after: seqParam
      .optional()
      .describe(
        'Events after this seq: the `next` of the previous answer; 0 or absent: from the oldest kept',
      ),
    limit: limitParam(100, 1000),
    ...filterFields,
  })
  .strict();

export type ListEventsQuery = z.infer<typeof listEventsQuery>;

export const streamEventsQuery = z
  .object({
    after: seqParam
      .optional()
      .describe(
        'Resume after this seq (0: from the oldest kept); a Last-Event-ID header wins over it. ' +
          'Without either the stream starts at the next new event',
      ),
    ...filterFields,
  })
  .strict();

/**
 * `data` in a response: the stored JSON text, written out verbatim (message content keeps its
 * bytes, D28).
 */
const eventDataSchema = z
  .custom<RawJson>((value) => value instanceof RawJson)
  .meta({
    description: 'The object as the REST API returns it after the change',
    // Open: a generated client types it as an object with any keys (D2).
    type: 'object',
    additionalProperties: true,
  });

const eventSchema = z
  .object({
    id: z.string().meta({ example: 'evt_01jf3c9r0d6e8x2v7m4k5n1p0q' }),
    seq: z.number().int().describe('Position in the project feed: strictly increasing, gaps allowed'),
    type: z.string().meta({ example: 'message.created' }),
    created: z.string(),
    projectId: z.string(),
    namespace: z.string().nullable(),
    dialogueId: z.string().nullable(),
    objectId: z.string(),
    data: eventDataSchema,
  })
  .meta({ id: 'Event' });

export const eventListResponse = z
  .object({
    items: z.array(eventSchema),
    next: z.number().int().describe('Pass as `after` next time: the last seq returned, or the given `after`'),
  })
  .meta({ id: 'EventList' });
