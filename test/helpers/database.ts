import { randomBytes } from 'node:crypto';
import type { Logger } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';

// Each test file gets a database of its own: an in-memory PGlite by default, or a fresh database
// on the server of TEST_DATABASE_URL, created here and dropped on close.

export interface TestDatabase {
  handle: DatabaseHandle;
  /** The connection string of the fresh database, when running on a server. */
  url?: string;
  close(): Promise<void>;
}

export const testServerUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Creates an empty database on the server of `serverUrl` and returns its URL and a dropper. */
export async function createServerDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `parley_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** `queryLogger` is told every statement the handle runs (tests that count queries). */
export async function createTestDatabase(options: { queryLogger?: Logger } = {}): Promise<TestDatabase> {
  const { queryLogger } = options;
  const serverUrl = testServerUrl();
  if (!serverUrl) {
    const handle = await openDatabase({ dataDir: 'memory://', queryLogger });
    await runMigrations(handle);
    return { handle, close: () => handle.close() };
  }
  const server = await createServerDatabase(serverUrl);
  const handle = await openDatabase({ databaseUrl: server.url, dataDir: 'unused', poolMax: 20, queryLogger });
  await runMigrations(handle);
  return {
    handle,
    url: server.url,
    async close() {
      await handle.close();
      await server.drop();
    },
  };
}
