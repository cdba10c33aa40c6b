import { type SQL, sql } from 'drizzle-orm';
import { dialogues } from '../../db/schema.js';

// Published by the dialogues module for statements of other modules (search, export, messages).

/**
 * D150: the dialogue has not reached its `expiresAt`. The same simple predicate in every read, so
 * that an expired dialogue is gone for the API the moment it expires, before the sweeper erases it.
 */
export const liveDialogue = sql`(${dialogues.expiresAt} IS NULL OR ${dialogues.expiresAt} > now())`;

/** D150: `liveDialogue` for a statement written as text, on the dialogues row under `alias`. */
export const liveDialogueAs = (alias: string) =>
  sql.raw(`(${alias}.expires_at IS NULL OR ${alias}.expires_at > now())`);

/**
 * D169: a message's dialogue (`dialogueId`, a column of the statement) has not expired, for a
 * statement over many messages of the project: the project's expired dialogues are read once
 * (from the partial index on expires_at), not looked up per message.
 */
export const inLiveDialogue = (projectId: string, dialogueId: SQL) =>
  sql`${dialogueId} NOT IN (SELECT d.id FROM dialogues d
    WHERE d.project_id = ${projectId} AND d.expires_at IS NOT NULL AND d.expires_at <= now())`;
