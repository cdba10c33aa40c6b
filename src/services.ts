import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { createDialogueService } from './modules/dialogues/service.js';
import { createMessageService } from './modules/messages/service.js';
import { createProjectService } from './modules/projects/service.js';
import { createUsageService } from './modules/usage/service.js';

// The one place that wires services to their dependencies (STYLE 3).

export interface ServiceDeps {
  config: Config;
  database: DatabaseHandle;
}

export function createServices({ database }: ServiceDeps) {
  const projects = createProjectService(database.db);
  const dialogues = createDialogueService();
  const messages = createMessageService();
  const usage = createUsageService(database.db);
  return { projects, dialogues, messages, usage };
}

export type Services = ReturnType<typeof createServices>;
