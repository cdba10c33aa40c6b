import type { AttemptRow, EndpointRow } from './repository.js';

// Rows -> the records of D67.

export const toWebhook = (row: EndpointRow) => ({
  id: row.id,
  url: row.url,
  types: row.types,
  namespace: row.namespace,
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabledReason,
  created: row.created.toISOString(),
  modified: row.modified.toISOString(),
});

export const toAttempt = (row: AttemptRow) => ({
  id: row.id,
  eventId: row.eventId,
  type: row.type,
  seq: row.seq === null ? null : Number(row.seq),
  attempt: row.attempt,
  status: row.status,
  responseStatus: row.responseStatus,
  durationMs: row.durationMs,
  error: row.error,
  created: row.created.toISOString(),
});
