import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { Embedder } from './embedders/embedder.js';
import { createCompactionService } from './modules/dialogues/compaction.js';
import { toDialogueRecord } from './modules/dialogues/records.js';
import { findDialogues } from './modules/dialogues/repository.js';
import { createDialogueService } from './modules/dialogues/service.js';
import { createMemoryService } from './modules/memories/service.js';
import { findMessagesByKeys } from './modules/messages/repository.js';
import { toMessageRecord } from './modules/messages/records.js';
import { createMessageService } from './modules/messages/service.js';
import { createProjectService } from './modules/projects/service.js';
import { type ItemLoaders, type SearchItem, createSearchService, itemKey } from './modules/search/service.js';
import { createUsageService } from './modules/usage/service.js';
import type { Summarizer } from './summaries/summarizer.js';

// The one place that wires services to their dependencies (STYLE 3).

export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
  /** The configured embedder (D41); undefined with EMBEDDINGS=none. */
  embedder?: Embedder;
  /** Where a failed query embedding is reported (search falls back to full text). */
  onEmbedError?: (error: unknown) => void;
  /** Writes dialogue summaries (D22). */
  summarizer: Summarizer;
}

export function createServices({ database, embedder, onEmbedError, summarizer }: ServiceDeps) {
  const projects = createProjectService(database.db);
  const dialogues = createDialogueService();
  const messages = createMessageService();
  const usage = createUsageService(database.db);
  const compaction = createCompactionService({ db: database.db, summarizer, dialogues });
  const memories = createMemoryService(database.db);

  const loaders: ItemLoaders = {
    async memory({ projectId }, keys) {
      const found = await memories.loadMemories(
        projectId,
        keys.map((key) => key.id),
      );
      return new Map(found.map((memory) => [itemKey({ dialogueId: '', id: memory.id }), memory]));
    },
    async message({ projectId }, keys) {
      const rows = await findMessagesByKeys(database.readDb, projectId, keys);
      return new Map(rows.map((row) => [itemKey(row), toMessageRecord(row) as unknown as SearchItem]));
    },
    async dialogue({ projectId, settings }, keys) {
      const rows = await findDialogues(
        database.readDb,
        projectId,
        keys.map((key) => key.id),
      );
      return new Map(
        rows.map((row) => [
          itemKey({ dialogueId: row.id, id: row.id }),
          toDialogueRecord(row, settings) as unknown as SearchItem,
        ]),
      );
    },
  };
  const search = createSearchService({ db: database.readDb, embedder, loaders, onEmbedError });
  return { projects, dialogues, messages, usage, compaction, memories, search };
}

export type Services = ReturnType<typeof createServices>;
