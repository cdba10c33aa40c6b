import { RawJson } from '../../core/raw-json.js';
import type * as repo from './repository.js';
import type { MemoryView } from './schemas.js';

// The API's memory record (D37), shared by the service and the import's events (D64).

export const toMemoryView = (row: repo.MemoryRecordRow): MemoryView => ({
  id: row.id,
  projectId: row.projectId,
  namespace: row.namespace,
  label: row.label,
  description: row.description,
  // D57: the value's JSON text as it was sent, written out verbatim (D28).
  value: new RawJson(row.value),
  tags: row.tags,
  metadata: row.metadata ?? null,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});
