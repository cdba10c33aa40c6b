import { memories } from '../../db/schema.js';

// Published by the memories module for statements of other modules (as messages/record-sql.ts).

/** The columns of a memory record: what the API shows of a row (other modules, such as
 * export, read the same). */
export const recordColumns = {
  projectId: memories.projectId,
  id: memories.id,
  namespace: memories.namespace,
  label: memories.label,
  description: memories.description,
  value: memories.value,
  tags: memories.tags,
  metadata: memories.metadata,
  expiresAt: memories.expiresAt,
  created: memories.created,
  modified: memories.modified,
};
