import type { SummaryRow } from './repository.js';

// D56: the API's summary object, every field present (null when unset, `tags` [], `metadata` {}).

export interface SummaryRecord {
  id: string;
  dialogueId: string;
  projectId: string;
  /** Summaries are made synchronously: `processing` is never stored. */
  status: 'processing' | 'completed' | 'failed';
  namespace: string | null;
  content: string | null;
  contentTokenCount: number | null;
  provider: string;
  model: string;
  /** Parley has no summary templates. */
  template: null;
  fromCreated: string | null;
  toCreated: string | null;
  messageCount: number;
  summarizedCount: number;
  skippedCount: number;
  error: string | null;
  metadata: Record<string, unknown>;
  tags: string[];
  created: string;
  modified: string;
}

export function toSummaryRecord(row: SummaryRow): SummaryRecord {
  return {
    id: row.id,
    dialogueId: row.dialogueId,
    projectId: row.projectId,
    status: row.status,
    namespace: row.namespace,
    content: row.content,
    contentTokenCount: row.contentTokenCount,
    provider: row.provider,
    model: row.model,
    template: null,
    fromCreated: row.fromCreated?.toISOString() ?? null,
    toCreated: row.toCreated?.toISOString() ?? null,
    messageCount: row.messageCount,
    summarizedCount: row.summarizedCount,
    skippedCount: row.skippedCount,
    error: row.error,
    metadata: row.metadata,
    tags: row.tags,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}
