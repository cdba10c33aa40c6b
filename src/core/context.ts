// The project a request acts for. Authentication (REST and MCP alike) resolves it from the API
// key (D6, D46), and every service call, read or write, takes it: no query runs without it.

/** A project's settings, set through the admin API (D25, D43-D45, D24). */
export interface ProjectSettings {
  immutableDialogues?: boolean;
  ipAllowList?: string[];
  monthlyWriteQuota?: number | null;
  rateLimit?: { max: number; windowSeconds: number } | null;
  dialogueTtlSeconds?: number | null;
  /** D151: what the retention sweeper deletes; absent: nothing. */
  retention?: RetentionPolicy;
}

/** D151: ages in days (fractions allowed) past which objects are deleted; an absent rule deletes nothing. */
export interface RetentionRules {
  /** Messages created longer ago. */
  messageDays?: number;
  /** Dialogues (whole, with their messages) not changed for longer. */
  idleDialogueDays?: number;
  /** Memories not updated for longer. */
  memoryDays?: number;
}

/** D151: the project's rules, and namespaces whose own rules replace them there. */
export interface RetentionPolicy extends RetentionRules {
  namespaces?: Record<string, RetentionRules>;
}

export interface ProjectContext {
  projectId: string;
  settings: ProjectSettings;
}
