import { sql } from 'drizzle-orm';
import { memories } from '../../db/schema.js';

// Published by the memories module for statements of other modules (export, search).

/** D150: the memory has not reached its `expiresAt` (as dialogues/expiry-sql.ts). */
export const liveMemory = sql`(${memories.expiresAt} IS NULL OR ${memories.expiresAt} > now())`;

/** D150: `liveMemory` for a statement written as text, on the memories row under `alias`. */
export const liveMemoryAs = (alias: string) =>
  sql.raw(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`);
