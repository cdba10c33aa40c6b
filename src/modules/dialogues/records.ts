import type { ProjectSettings } from '../../core/context.js';
import type { DialogueSummary } from '../../db/schema.js';
import type { MessageRecord } from '../messages/schemas.js';
import type { DialogueRow } from './repository.js';

// The API's dialogue record (D15): every field present, null when unset.

type DialogueStatus = DialogueRow['status'];

export interface DialogueRecord {
  id: string;
  projectId: string;
  namespace: string | null;
  threadOf: string | null;
  label: string | null;
  status: DialogueStatus;
  expired: boolean;
  tags: string[];
  metadata: Record<string, unknown>;
  state: Record<string, unknown>;
  summary: DialogueSummary | null;
  totalMessages: number;
  /** D160: the dialogue and message a fork was copied from; null for a dialogue that is no fork. */
  forkedFrom: { dialogueId: string; messageId: string | null } | null;
  threadCount: number;
  lastMessageCreated: string | null;
  /** D150: when the dialogue stops existing for the API; null: never. */
  expiresAt: string | null;
  created: string;
  modified: string;
}

/** The record of create, get and update: with the messages the operation names (D15, D18). */
export interface DialogueWithMessages extends DialogueRecord {
  messages: MessageRecord[];
}

/**
 * D24: an active dialogue whose last change is older than the project's `dialogueTtlSeconds` is
 * expired: the moment before which a last change means expiry, or null when nothing expires.
 */
export function expiryCutoff(settings: ProjectSettings, now = Date.now()): Date | null {
  const ttl = settings.dialogueTtlSeconds;
  return ttl === undefined || ttl === null ? null : new Date(now - ttl * 1000);
}

/** D24. An ended dialogue is closed already and stays `ended`. */
export function isExpired(
  row: Pick<DialogueRow, 'status' | 'modified'>,
  settings: ProjectSettings,
  now = Date.now(),
): boolean {
  const cutoff = expiryCutoff(settings, now);
  return cutoff !== null && row.status === 'active' && row.modified < cutoff;
}

/** A row without its summary's coverage, which is internal (an imported row has none yet). */
export function toDialogueRecord(
  row: Omit<DialogueRow, 'summaryCoversSeq'>,
  settings: ProjectSettings,
): DialogueRecord {
  const expired = isExpired(row, settings);
  return {
    id: row.id,
    projectId: row.projectId,
    namespace: row.namespace,
    threadOf: row.threadOf,
    label: row.label,
    status: expired ? 'expired' : row.status,
    expired,
    tags: row.tags,
    metadata: row.metadata,
    state: row.state,
    summary: row.summary,
    totalMessages: row.totalMessages,
    forkedFrom:
      row.forkedFromDialogueId === null
        ? null
        : { dialogueId: row.forkedFromDialogueId, messageId: row.forkedFromMessageId },
    threadCount: row.threadCount,
    lastMessageCreated: row.lastMessageCreated?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    created: row.created.toISOString(),
    modified: row.modified.toISOString(),
  };
}

export const withMessages = (
  row: DialogueRow,
  settings: ProjectSettings,
  messages: MessageRecord[],
): DialogueWithMessages => ({ ...toDialogueRecord(row, settings), messages });

/** D17, D41: a dialogue's searchable text of its own: label, tags and summary (D22). */
export const dialogueSearchText = (row: {
  label?: string | null;
  tags?: string[];
  summary?: { text: string } | null;
}): string =>
  [row.label ?? '', ...(row.tags ?? []), row.summary?.text ?? ''].filter((part) => part !== '').join('\n');
