import { RawJson } from '../../core/raw-json.js';
import type * as repo from './repository.js';
import type { MessageRecord, Role } from './schemas.js';

// What the message services take and give (D28, D30).

export interface MessageInput {
  id?: string;
  role: Role;
  /** The exact JSON text of the content as the client sent it (D28). */
  content: RawJson;
  name?: string | null;
  created?: string;
  metadata?: Record<string, unknown> | null;
  tags?: string[];
}

/** A message to add, with the path of the field it came from, for error details (D12, D31). */
export interface FieldedInput {
  field: string;
  input: MessageInput;
}

/** A row without its insertion sequence, which is internal (an imported row has none yet). */
export function toMessageRecord(row: Omit<repo.MessageRow, 'seq'>): MessageRecord {
  return {
    id: row.id,
    dialogueId: row.dialogueId,
    namespace: row.namespace,
    role: row.role,
    content: new RawJson(row.content),
    contentLength: row.contentLength,
    name: row.name,
    tags: row.tags,
    metadata: row.metadata ?? null,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}
