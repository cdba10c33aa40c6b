import { z } from 'zod';

// Field formats shared by dialogues, messages and memories (D17): every string and list bounded.

const MAX_METADATA_BYTES = 16 * 1024;
export const MAX_STATE_BYTES = 256 * 1024;

export const jsonBytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/**
 * D27: a client-chosen id is 1-128 characters of A-Za-z0-9._:- (messages; dialogues, D57a;
 * memories, D57; summaries, D56).
 */
export const clientIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'must be 1-128 characters of A-Za-z0-9._:-');

/** A client-given ISO 8601 time with a zone (a message's `created`, D30; a dialogue's, D57a). */
export const createdInputSchema = z.iso.datetime({ offset: true });

/** D150: when a dialogue or memory stops existing for the API (ISO 8601 with a zone). */
export const expiresAtInputSchema = z.iso
  .datetime({ offset: true })
  .describe(
    'D150: ISO 8601 date-time with a zone; from then on the object answers 404 everywhere and is erased. null clears it',
  );

/**
 * D80: the roles a message may have. `tool` is a tool's output (its call id can live in `name` or
 * `metadata`), `developer` OpenAI's instruction role: transcripts of current chat APIs are stored
 * without remapping.
 */
export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'tool', 'developer'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export const namespaceSchema = z.string().min(1).max(128).describe('Namespace, 1-128 characters');

export const tagsSchema = z
  .array(z.string().min(1).max(64))
  .max(50)
  .describe('At most 50 tags of 1-64 characters');

/** A JSON object whose serialized form is at most `maxBytes` bytes. */
function jsonObjectSchema(maxBytes: number) {
  return z
    .record(z.string(), z.unknown())
    .refine((value) => jsonBytes(value) <= maxBytes, `must be at most ${maxBytes / 1024} KiB as JSON`);
}

export const metadataSchema = jsonObjectSchema(MAX_METADATA_BYTES).describe(
  'Free-form object, at most 16 KiB as JSON; immutable after creation',
);

export const stateSchema = jsonObjectSchema(MAX_STATE_BYTES).describe(
  'Free-form object, at most 256 KiB as JSON',
);
