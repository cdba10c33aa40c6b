// The project a request acts for. Authentication (REST and MCP alike) resolves it from the API
// key (D6, D46), and every service call, read or write, takes it: no query runs without it.

/** A project's settings, set through the admin API (D25, D43-D45, D24). */
export interface ProjectSettings {
  immutableDialogues?: boolean;
  ipAllowList?: string[];
  monthlyWriteQuota?: number | null;
  rateLimit?: { max: number; windowSeconds: number } | null;
  dialogueTtlSeconds?: number | null;
}

export interface ProjectContext {
  projectId: string;
  settings: ProjectSettings;
}
