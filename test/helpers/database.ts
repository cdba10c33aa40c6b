import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Logger } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { runMigrations } from '../../src/db/migrate.js';
import { eventually } from './eventually.js';

// Each test file gets a database of its own: an in-memory PGlite by default, or a fresh database
// on the server of TEST_DATABASE_URL, created here and dropped on close. When that server is a
// Citus coordinator (its database has the citus extension, as `npm run test:citus` gives it), the
// fresh database is registered as Citus needs for each database: citus and vector on every node,
// the coordinator and the workers named in its metadata, and a small shard count, so that the
// migrations distribute its tables (src/db/citus.ts). A database without Citus proves nothing.

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

/** Shards per distributed table in test databases: few, so that creating and moving them is quick. */
const TEST_SHARD_COUNT = 4;

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The URL of `url` on another node of the same cluster. */
function onNode(url: string, host: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = host;
  parsed.port = String(port);
  return parsed.toString();
}

/** The workers of the Citus cluster whose coordinator `serverUrl` names; undefined without Citus. */
async function citusWorkers(serverUrl: string): Promise<{ host: string; port: number }[] | undefined> {
  return withClient(serverUrl, async (client) => {
    const citus = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
    if (citus.rowCount === 0) return undefined;
    const nodes = await client.query<{ host: string; port: number }>(
      `SELECT nodename AS host, nodeport AS port FROM pg_dist_node WHERE groupid <> 0 AND isactive ORDER BY nodeport`,
    );
    return nodes.rows;
  });
}

const clusters = new Map<string, Promise<{ host: string; port: number }[] | undefined>>();
/** The workers behind `serverUrl`, asked once per test file. */
function clusterOf(serverUrl: string) {
  if (!clusters.has(serverUrl)) clusters.set(serverUrl, citusWorkers(serverUrl));
  return clusters.get(serverUrl)!;
}

/** Whether the server of TEST_DATABASE_URL is a Citus coordinator. */
export async function testServerIsCitus(): Promise<boolean> {
  const serverUrl = testServerUrl();
  return serverUrl !== undefined && (await clusterOf(serverUrl)) !== undefined;
}

/** Makes a new database part of the cluster: extensions on every node, then the nodes in its metadata. */
async function registerCitusDatabase(
  serverUrl: string,
  name: string,
  workers: { host: string; port: number }[],
): Promise<void> {
  const url = withDatabase(serverUrl, name);
  const coordinator = new URL(serverUrl);
  for (const worker of workers) {
    // CREATE DATABASE reaches the workers when the coordinator propagates it; create it if not.
    await withClient(onNode(serverUrl, worker.host, worker.port), async (client) => {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount === 0) await client.query(`CREATE DATABASE ${name}`);
    });
  }
  for (const node of [{ host: coordinator.hostname, port: Number(coordinator.port || 5432) }, ...workers]) {
    await withClient(onNode(url, node.host, node.port), (client) =>
      client.query('CREATE EXTENSION IF NOT EXISTS citus; CREATE EXTENSION IF NOT EXISTS vector'),
    );
  }
  await withClient(url, async (client) => {
    await client.query('SELECT citus_set_coordinator_host($1, $2)', [
      coordinator.hostname,
      Number(coordinator.port || 5432),
    ]);
    for (const worker of workers)
      await client.query('SELECT citus_add_node($1, $2)', [worker.host, worker.port]);
  });
  await withClient(serverUrl, (client) =>
    client.query(`ALTER DATABASE ${name} SET citus.shard_count = ${TEST_SHARD_COUNT}`),
  );
}

/** How long a drop waits for the database's last connections to leave. */
const DROP_WAIT_MS = 30_000;

/**
 * Drops `name` on the server of `url` once its last connections have left. They may still be
 * closing for a moment after the test's pool has ended (55006), on a worker as on the coordinator
 * (the coordinator's connections to the worker close after its own): on a Citus node under a
 * loaded CI machine this once lasted more than 5 s, despite FORCE. Any other error ends the wait.
 */
async function dropWhenLeft(url: string, name: string, { citusNode }: { citusNode: boolean }): Promise<void> {
  await withClient(url, async (client) => {
    if (citusNode) await client.query('SET citus.enable_create_database_propagation TO off');
    const outcome = await eventually(
      async () => {
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
          return { dropped: true as const };
        } catch (error) {
          return (error as { code?: string }).code === '55006' ? false : { dropped: false as const, error };
        }
      },
      { what: `the last connections to ${name} to leave`, timeoutMs: DROP_WAIT_MS, intervalMs: 100 },
    );
    if (!outcome.dropped) throw outcome.error;
  });
}

/**
 * Creates an empty database on the server of `serverUrl` (registered with the cluster when the
 * server is a Citus coordinator) and returns its URL and a dropper.
 */
export async function createServerDatabase(
  serverUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `parley_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const workers = await clusterOf(serverUrl);
  if (workers) await registerCitusDatabase(serverUrl, name, workers);
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      // On Citus the coordinator drops only its own copy, and each worker's copy is dropped after
      // it: a propagated drop that fails on one node after succeeding on another cannot be retried
      // (the retry fails with "does not exist" on the node that has dropped it).
      await dropWhenLeft(serverUrl, name, { citusNode: workers !== undefined });
      for (const worker of workers ?? []) {
        await dropWhenLeft(onNode(serverUrl, worker.host, worker.port), name, { citusNode: true });
      }
    },
  };
}

/** Where test/helpers/pglite-template.ts left the migrated embedded database that tests start from. */
export const PGLITE_TEMPLATE_ENV = 'PARLEY_TEST_PGLITE_TEMPLATE';

let pgliteTemplate: Blob | undefined;
/** The migrated embedded database of this run, read once per test process; undefined without one. */
function migratedPglite(): Blob | undefined {
  const file = process.env[PGLITE_TEMPLATE_ENV];
  if (!file) return undefined;
  pgliteTemplate ??= new Blob([readFileSync(file)]);
  return pgliteTemplate;
}

/** `queryLogger` is told every statement the handle runs (tests that count queries). */
export async function createTestDatabase(options: { queryLogger?: Logger } = {}): Promise<TestDatabase> {
  const { queryLogger } = options;
  const serverUrl = testServerUrl();
  if (!serverUrl) {
    const handle = await openDatabase({
      dataDir: 'memory://',
      queryLogger,
      initialDataDir: migratedPglite(),
    });
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
