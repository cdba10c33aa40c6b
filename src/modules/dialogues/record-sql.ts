import { dialogues } from '../../db/schema.js';

// Published by the dialogues module for statements of other modules (as messages/record-sql.ts).

/** The columns of a dialogue record: what the API shows of a row (other modules, such as
 * export, read the same). */
export const recordColumns = {
  projectId: dialogues.projectId,
  id: dialogues.id,
  namespace: dialogues.namespace,
  threadOf: dialogues.threadOf,
  label: dialogues.label,
  status: dialogues.status,
  tags: dialogues.tags,
  metadata: dialogues.metadata,
  state: dialogues.state,
  summary: dialogues.summary,
  summaryCoversSeq: dialogues.summaryCoversSeq,
  summaryId: dialogues.summaryId,
  totalMessages: dialogues.totalMessages,
  forkedFromDialogueId: dialogues.forkedFromDialogueId,
  forkedFromMessageId: dialogues.forkedFromMessageId,
  threadCount: dialogues.threadCount,
  lastMessageCreated: dialogues.lastMessageCreated,
  expiresAt: dialogues.expiresAt,
  created: dialogues.created,
  modified: dialogues.modified,
};
