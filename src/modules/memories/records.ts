import { RawJson } from '../../core/raw-json.js';
import { MAX_SEARCH_TEXT_CHARS, contentText } from '../../lib/content-text.js';
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
  expiresAt: row.expiresAt?.toISOString() ?? null,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

/**
 * D57: what a memory is found by: its label, description and the text of its value (a number or
 * boolean as written; in an object or array, its strings, as in message content).
 */
export function memorySearchText(label: string | null, description: string | null, value: unknown): string {
  const valueText =
    typeof value === 'number' || typeof value === 'boolean' ? String(value) : contentText(value);
  return [label, description, valueText]
    .filter((part) => part !== null && part !== '')
    .join('\n')
    .replaceAll('\u0000', '')
    .slice(0, MAX_SEARCH_TEXT_CHARS);
}
