import { MESSAGE_ROLES } from '../../core/fields.js';
import { z } from 'zod';

// The JSON Lines format of `parley export` (version 1). One JSON object per line:
//   {"type":"parley-export","version":1,"projectId":...,"exportedAt":...}   first line
//   {"type":"dialogue",...}  each dialogue, followed by
//   {"type":"message",...}   its messages in order (created, then insertion order)
//   {"type":"memory",...}    every memory
//   {"type":"end","counts":{"dialogues":n,"messages":n,"memories":n}}   last line
// Message `content` is the stored JSON text as a string: its bytes come back exactly (D28).
// Timestamps are ISO 8601 with milliseconds, as stored. Embeddings are not exported: the
// importing side queues the imported objects for embedding with its own model (D40, D41).

export const EXPORT_FORMAT = 'parley-export';
export const EXPORT_VERSION = 1;

const timestamp = z.iso.datetime({ offset: true }).transform((value) => new Date(value));
const jsonObject = z.record(z.string(), z.unknown());
const tags = z.array(z.string());

export const headerLine = z.object({
  type: z.literal(EXPORT_FORMAT),
  version: z.literal(EXPORT_VERSION),
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
  threadCount: z.number().int().min(0),
  lastMessageCreated: timestamp.nullable(),
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
  content: z.string().min(1),
  contentLength: z.number().int().min(0),
  name: z.string().nullable(),
  tags,
  metadata: jsonObject.nullable(),
  searchText: z.string(),
  created: timestamp,
  modified: timestamp,
});

const memoryLine = z.object({
  type: z.literal('memory'),
  id: z.string().min(1),
  namespace: z.string().nullable(),
  label: z.string().nullable(),
  value: z.string(),
  tags,
  metadata: jsonObject.nullable(),
  created: timestamp,
  modified: timestamp,
});

const counts = z.object({
  dialogues: z.number().int().min(0),
  messages: z.number().int().min(0),
  memories: z.number().int().min(0),
});
export type TransferCounts = z.infer<typeof counts>;

const endLine = z.object({ type: z.literal('end'), counts });

export const bodyLine = z.discriminatedUnion('type', [dialogueLine, messageLine, memoryLine, endLine]);
