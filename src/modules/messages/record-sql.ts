import { type SQL, sql } from 'drizzle-orm';
import { messages } from '../../db/schema.js';

/**
 * A message row of `source` (a table name or alias in the statement) as JSON text: the object
 * records.ts toMessageRecord makes for the REST API. Same keys in the same order; the content
 * verbatim (D28: `json` keeps its text); times as Date.toISOString writes them (the columns keep
 * milliseconds). The outbox reads a `message.created` event's data through it (D63), and a
 * message's first change writes it into the event (src/modules/events/repository.ts);
 * test/events/outbox.test.ts keeps it equal to the REST answer field for field.
 */
export function messageRecordJson(source: string): SQL {
  const m = sql.raw(source);
  return sql`json_build_object(
    'id', ${m}.id, 'dialogueId', ${m}.dialogue_id, 'namespace', ${m}.namespace, 'role', ${m}.role,
    'content', ${m}.content::json, 'contentLength', ${m}.content_length, 'name', ${m}.name,
    'tags', to_json(${m}.tags), 'metadata', ${m}.metadata,
    'created', to_char(${m}.created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'modified', to_char(${m}.modified AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text`;
}

/** The columns of a message record: what the API shows of a row (other modules, such as
 * export, read the same). */
export const recordColumns = {
  dialogueId: messages.dialogueId,
  id: messages.id,
  seq: messages.seq,
  namespace: messages.namespace,
  role: messages.role,
  content: messages.content,
  contentLength: messages.contentLength,
  name: messages.name,
  tags: messages.tags,
  metadata: messages.metadata,
  created: messages.created,
  modified: messages.modified,
};
