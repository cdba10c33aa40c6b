import { Parley } from '@parley/client';
import { type TestContext, createProject, createTestContext } from './app.js';
import { listen } from './mcp.js';

/** A real Parley listening on 127.0.0.1 (the app on a fresh database), and clients of new projects. */
export interface ClientServer {
  ctx: TestContext;
  baseUrl: string;
  /** A client with the key of a project of its own: tests do not see each other's data. */
  newClient(): Promise<Parley>;
  close(): Promise<void>;
}

export async function startClientServer(env: Record<string, string> = {}): Promise<ClientServer> {
  const ctx = await createTestContext(env);
  const baseUrl = await listen(ctx.app);
  return {
    ctx,
    baseUrl,
    newClient: async () => new Parley({ baseUrl, apiKey: (await createProject(ctx.app)).apiKey }),
    close: () => ctx.close(),
  };
}
