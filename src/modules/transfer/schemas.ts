import { MESSAGE_ROLES } from '../../core/fields.js';
import { z } from 'zod';

// The JSON Lines format of `parley export` (version 2). One JSON object per line:
//   {"type":"parley-export","version":2,"projectId":...,"exportedAt":...}   first line
//   {"type":"dialogue",...}  each dialogue, followed by
//   {"type":"message",...}   its messages in order (created, then insertion order)
//   {"type":"memory",...}    every memory
//   {"type":"end","counts":{"dialogues":n,"messages":n,"memories":n}}   last line
// Message `content` and memory `value` are the stored JSON text as a string: their bytes come
// back exactly (D28, D57). Version 2 (D57) changed the memory line: `value` became that JSON text
// (version 1 held the plain string value) and `description` and `searchText` were added; version 1
// files are still read.
// Timestamps are ISO 8601 with milliseconds, as stored. Embeddings are not exported: the
// importing side queues the imported objects for embedding with its own model (D40, D41).

export const EXPORT_FORMAT = 'parley-export';
export const EXPORT_VERSION = 2;

const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const jsonObject = z.record(z.string(), z.unknown());
/** Stored JSON text, written out verbatim by every read: it must parse. */
const jsonText = z
  .string()
  .min(1)
  .refine((text) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }, 'must be JSON text');
const tags = z.array(z.string());

export const headerLine = z.object({
  type: z.literal(EXPORT_FORMAT),
  version: z.union([z.literal(1), z.literal(EXPORT_VERSION)]),
  projectId: z.string(),
  exportedAt: z.string(),
});

const dialogueLine = z.object({
  type: z.literal('dialogue'),
  id: z.string().min(1),
  namespace: z.string().nullable(),
  threadOf: z.string().nullable(),
  label: z.string().nullable(),
  status: z.enum(['active', 'ended', 'canceled', 'expired', 'deleted']),
  tags,
  metadata: jsonObject,
  state: jsonObject,
  summary: z
    .object({
      text: z.string(),
      model: z.string(),
      messageCount: z.number(),
      upToMessageId: z.string().nullable(),
      created: z.string(),
    })
    .nullable(),
  totalMessages: z.number().int().min(0),
  // D160: a fork's origin; absent from files written before forks existed.
  forkedFromDialogueId: z.string().nullable().default(null),
  forkedFromMessageId: z.string().nullable().default(null),
  threadCount: z.number().int().min(0),
  lastMessageCreated: timestamp.nullable(),
  // D150: absent in files written before expiry existed.
  expiresAt: timestamp.nullable().default(null),
  searchText: z.string(),
  created: timestamp,
  modified: timestamp,
});

const messageLine = z.object({
  type: z.literal('message'),
  dialogueId: z.string().min(1),
  id: z.string().min(1),
  namespace: z.string().nullable(),
  role: z.enum(MESSAGE_ROLES),
  content: jsonText,
  contentLength: z.number().int().min(0),
  name: z.string().nullable(),
  tags,
  metadata: jsonObject.nullable(),
  searchText: z.string(),
  created: timestamp,
  modified: timestamp,
});

const memoryFields = {
  type: z.literal('memory'),
  id: z.string().min(1),
  namespace: z.string().nullable(),
  label: z.string().nullable(),
  tags,
  metadata: jsonObject.nullable(),
  // D150: absent in files written before expiry existed.
  expiresAt: timestamp.nullable().default(null),
  created: timestamp,
  modified: timestamp,
};

const memoryLine = z.object({
  ...memoryFields,
  description: z.string().nullable(),
  value: jsonText,
  searchText: z.string(),
});

/** Version 1: the value as a plain string, read as the version 2 line it stands for. */
const memoryLineV1 = z.object({ ...memoryFields, value: z.string() }).transform((line) => ({
  ...line,
  description: null,
  value: JSON.stringify(line.value),
  // As the migration of D57 made it for the memories stored before.
  searchText: [line.label, line.value].filter((part) => part !== null).join('\n'),
}));

const counts = z.object({
  dialogues: z.number().int().min(0),
  messages: z.number().int().min(0),
  memories: z.number().int().min(0),
});
export type TransferCounts = z.infer<typeof counts>;

const endLine = z.object({ type: z.literal('end'), counts });

/** The line schemas of each format version the importer reads. */
export const bodyLineOf = {
  1: z.union([dialogueLine, messageLine, memoryLineV1, endLine]),
  2: z.discriminatedUnion('type', [dialogueLine, messageLine, memoryLine, endLine]),
};
