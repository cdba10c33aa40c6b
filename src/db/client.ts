import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'drizzle-orm';
import { vector } from '@electric-sql/pglite-pgvector';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema.js';

/** One Drizzle type for both stores, so that no code above this folder knows which one runs. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction or the database itself: repository functions accept either, so a service can run them in its caller's transaction. */
export type Executor = Pick<
  Database,
  '_' | 'select' | 'insert' | 'update' | 'delete' | 'execute' | 'transaction'
>;

/** Rows of a raw `db.execute(sql...)`: both drivers answer `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface DatabaseHandle {
  kind: 'postgres' | 'pglite';
  db: Database;
  /** The read replica when READ_DATABASE_URL is set, the primary otherwise. */
  readDb: Database;
  /** Pool statistics for /metrics; zeros on the embedded database. */
  poolStats(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
  /** Runs fn with a connection of its own (migrations under an advisory lock). */
  withDedicatedConnection<T>(fn: (db: Database) => Promise<T>): Promise<T>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  readDatabaseUrl?: string;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir: string;
  poolMax?: number;
  /**
   * Keep hot statements prepared by name on each connection (src/db/prepared.ts). Off for a
   * pooler that cannot follow named statements (PgBouncer before 1.21, or without
   * `max_prepared_statements`): every statement is then sent unnamed.
   */
  preparedStatements?: boolean;
  /** Told every statement the handle's databases run (diagnostics; tests count queries with it). */
  queryLogger?: Logger;
}

/**
 * A node-postgres client that sends every statement unnamed: the names Drizzle and
 * executePrepared give are dropped here, in one place, instead of in every repository.
 */
class UnnamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, ...rest] = args;
    if (config !== null && typeof config === 'object' && 'name' in config) {
      const { name: _name, ...unnamed } = config as Record<string, unknown>;
      return (super.query as (...a: unknown[]) => never)(unnamed, ...rest);
    }
    return (super.query as (...a: unknown[]) => never)(...args);
  }
}

// BIGINT counts (COUNT(*), identity columns) come back as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number.parseInt(value, 10));

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options)
    : openPglite(options.dataDir, options.queryLogger);
}

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const Client = options.preparedStatements === false ? UnnamedStatementClient : pg.Client;
  const pool = new pg.Pool({ connectionString: url, max: options.poolMax ?? 10, Client });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const replica = options.readDatabaseUrl
    ? new pg.Pool({ connectionString: options.readDatabaseUrl, max: options.poolMax ?? 10, Client })
    : undefined;
  replica?.on('error', () => {});
  const logger = options.queryLogger;
  const db = drizzlePg(pool, { schema, logger }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    readDb: replica ? (drizzlePg(replica, { schema, logger }) as unknown as Database) : db,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await pool.end();
      await replica?.end();
    },
    async withDedicatedConnection(fn) {
      const client = await pool.connect();
      try {
        return await fn(drizzlePg(client, { schema, logger }) as unknown as Database);
      } finally {
        client.release();
      }
    },
  };
}

async function openPglite(dataDir: string, logger: Logger | undefined): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  if (!inMemory) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(inMemory ? undefined : dataDir, { extensions: { vector } });
  const db = drizzlePglite(client, { schema, logger }) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    readDb: db,
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    async close() {
      // PGlite flushes its files on close; never leave it half-written (D48).
      if (!client.closed) await client.close();
    },
    withDedicatedConnection: (fn) => fn(db),
  };
}
