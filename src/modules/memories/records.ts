import type * as repo from './repository.js';
import type { MemoryView } from './schemas.js';

// The API's memory record (D37), shared by the service and the import's events (D64).

export const toMemoryView = (row: repo.MemoryRecordRow): MemoryView => ({
  id: row.id,
  projectId: row.projectId,
  namespace: row.namespace,
  label: row.label,
  value: row.value,
  tags: row.tags,
  metadata: row.metadata ?? null,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});
