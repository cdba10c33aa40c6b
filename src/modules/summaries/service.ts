import type { ProjectContext } from '../../core/context.js';
import { keysetCursor } from '../../core/cursor.js';
import { dialogueNotFound, summaryNotFound } from '../../core/errors.js';
import type { Database } from '../../db/client.js';
import type { DialogueScope } from '../dialogues/scope.js';
import { type SummaryRecord, toSummaryRecord } from './records.js';
import * as repo from './repository.js';
import type { ListSummariesQuery } from './schemas.js';

// D56: reading a dialogue's summaries back. They are written by the compaction service
// (compaction.ts), which makes them.

export interface SummaryServiceDeps {
  /** Where reads go: the replica when READ_DATABASE_URL is set. */
  readDb: Database;
  dialogueScope: Pick<DialogueScope, 'findGivenNamespace'>;
}

/** Keyset position (created, id), as for dialogues (D26). */
const cursor = keysetCursor('summaries', ['date', 'string'], (row: repo.SummaryRow) => [
  row.created.toISOString(),
  row.id,
]);

export function createSummaryService({ readDb, dialogueScope }: SummaryServiceDeps) {
  return {
    /** GET /summary/{id}: a namespace given must be its dialogue's (D53). */
    async get(ctx: ProjectContext, id: string, namespace: string | undefined): Promise<SummaryRecord> {
      const row = await repo.findSummary(readDb, ctx.projectId, id);
      if (!row) throw summaryNotFound(id);
      if (namespace !== undefined && namespace !== row.namespace) throw dialogueNotFound(row.dialogueId);
      return toSummaryRecord(row);
    },

    /** GET /summary?dialogueId=: newest first unless `order=asc`. */
    async list(
      ctx: ProjectContext,
      query: ListSummariesQuery,
    ): Promise<{ items: SummaryRecord[]; next: string | null }> {
      const after = query.next ? cursor.decode(query.next) : undefined;
      await dialogueScope.findGivenNamespace(readDb, ctx, {
        id: query.dialogueId,
        namespace: query.namespace,
      });
      const rows = await repo.listSummaries(readDb, ctx.projectId, query.dialogueId, {
        order: query.order,
        limit: query.limit + 1,
        after: after && { created: after[0], id: after[1] },
      });
      const { page, next } = cursor.page(rows, query.limit);
      return { items: page.map(toSummaryRecord), next };
    },
  };
}
