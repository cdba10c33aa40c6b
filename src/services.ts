import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { createCompactionService } from './modules/dialogues/compaction.js';
import { createDialogueService } from './modules/dialogues/service.js';
import { createMessageService } from './modules/messages/service.js';
import { createProjectService } from './modules/projects/service.js';
import { createUsageService } from './modules/usage/service.js';
import type { Summarizer } from './summaries/summarizer.js';

// The one place that wires services to their dependencies (STYLE 3).

export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
  /** Writes dialogue summaries (D22). */
  summarizer: Summarizer;
}

export function createServices({ database, summarizer }: ServiceDeps) {
  const projects = createProjectService(database.db);
  const dialogues = createDialogueService();
  const messages = createMessageService();
  const usage = createUsageService(database.db);
  const compaction = createCompactionService({ db: database.db, summarizer, dialogues });
  return { projects, dialogues, messages, usage, compaction };
}

export type Services = ReturnType<typeof createServices>;
